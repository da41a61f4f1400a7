import { catchUpSubscription } from '../../../src/event-store/catch-up-subscription';
import { LogPosition } from '../../../src/event-store/log-position';
import { WakeSignal } from '../../../src/event-store/wake-signal';

describe('catch-up subscription, idle', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  /** How often an idle subscription reads the log in one (fake) second. */
  async function readsInOneSecond(unseenLocalWrite: (after: LogPosition | undefined) => boolean): Promise<number> {
    let reads = 0;
    const subscription = catchUpSubscription(
      async () => {
        reads++;
        return [];
      },
      new WakeSignal(),
      { onEvents: async () => undefined },
      unseenLocalWrite,
    );
    await jest.advanceTimersByTimeAsync(1_000);
    const stopping = subscription.stop();
    await jest.advanceTimersByTimeAsync(10);
    await stopping;
    return reads;
  }

  it('backs off while nothing is expected, and keeps polling briskly while a local write is not visible yet', async () => {
    const relaxed = await readsInOneSecond(() => false);
    const eager = await readsInOneSecond(() => true);
    expect(relaxed).toBeLessThanOrEqual(8); // 10, 20, 40 ... ms
    expect(eager).toBeGreaterThanOrEqual(90); // every 10 ms
  });
});
