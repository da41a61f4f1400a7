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
  /**
   * True while this process appended past `after` what the log does not show
   * yet (another transaction holds the visibility horizon back): the interval
   * then stays short, because a request is likely waiting to read its write.
   */
  unseenLocalWrite: (after: LogPosition | undefined) => boolean = () => false,
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
      const wakesBefore = wake.notifications;
      try {
        events = await readAll({ after, maxCount: batchSize });
        if (events.length > 0) {
          await options.onEvents(events);
          after = events[events.length - 1].position;
          idleDelay = IDLE_POLL_MIN_MS;
          // A short page is all the read could see: read again at once only if a commit was announced since it
          // began, else wait as after an empty read (which this saves every subscriber on every commit).
          if (events.length >= batchSize || wake.notifications !== wakesBefore) continue;
        }
      } catch (error) {
        if (stopped) break;
        options.onError?.(error);
        await pause(ERROR_PAUSE_MS);
        continue;
      }
      if (unseenLocalWrite(after)) idleDelay = IDLE_POLL_MIN_MS;
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
