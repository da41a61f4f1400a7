import { LogPosition } from './log-position';
import { RecordedEvent, ReadAllOptions, SubscribeOptions, Subscription } from './event-store';
import { WakeSignal } from './wake-signal';

const IDLE_POLL_MIN_MS = 10;
const IDLE_POLL_MAX_MS = 1_000;
const ERROR_PAUSE_MS = 1_000;

/**
 * A catch-up subscription over `readAll`: reads batches after a position, hands
 * each to the consumer, and when the log is drained waits for a wake-up or polls
 * with a growing interval. A wake-up resets the interval, because a commit can
 * be seen a moment after its notification (another transaction may still hold
 * the visibility horizon back).
 */
export function catchUpSubscription(
  readAll: (options: ReadAllOptions) => Promise<RecordedEvent[]>,
  wake: WakeSignal,
  options: SubscribeOptions,
): Subscription {
  const batchSize = options.batchSize ?? 500;
  let after: LogPosition | undefined = options.after;
  let stopped = false;
  const stopSignal = new WakeSignal();

  const pause = (ms: number): Promise<boolean> => WakeSignal.any([wake, stopSignal], ms);

  const loop = (async () => {
    let idleDelay = IDLE_POLL_MIN_MS;
    while (!stopped) {
      let events: RecordedEvent[];
      try {
        events = await readAll({ after, maxCount: batchSize });
        if (events.length > 0) {
          await options.onEvents(events);
          after = events[events.length - 1].position;
          idleDelay = IDLE_POLL_MIN_MS;
          continue;
        }
      } catch (error) {
        if (stopped) break;
        options.onError?.(error);
        await pause(ERROR_PAUSE_MS);
        continue;
      }
      const woken = await pause(idleDelay);
      idleDelay = woken ? IDLE_POLL_MIN_MS : Math.min(idleDelay * 2, IDLE_POLL_MAX_MS);
    }
  })();

  return {
    async stop() {
      stopped = true;
      stopSignal.notify();
      await loop;
    },
  };
}
