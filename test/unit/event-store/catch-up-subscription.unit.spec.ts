import { catchUpSubscription } from '../../../src/event-store/catch-up-subscription';
import { LogPosition } from '../../../src/event-store/log-position';
import { WakeSignal } from '../../../src/event-store/wake-signal';

/** A recorded event at log position n. */
const event = (n: number) =>
  ({
    eventId: `e${n}`,
    type: 'X',
    streamId: 's',
    revision: n,
    position: new LogPosition(BigInt(n), 0n),
    data: {},
    metadata: {},
  }) as never;

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

describe('catch-up subscription, after a batch', () => {
  /** Reads made until the subscription is idle, with the log holding `pages` and `woken` called while a page is handled. */
  async function readsFor(pages: number[][], batchSize: number, whileHandling: (wake: WakeSignal) => void = () => undefined) {
    const wake = new WakeSignal();
    const reads: (bigint | undefined)[] = [];
    const handled: string[] = [];
    let idle!: () => void;
    const settled = new Promise<void>((resolve) => (idle = resolve));
    const subscription = catchUpSubscription(
      async ({ after }) => {
        reads.push(after?.commit);
        const page = pages.shift();
        if (!page) idle();
        return (page ?? []).map(event);
      },
      wake,
      {
        batchSize,
        onEvents: async (events) => {
          handled.push(...events.map((e) => e.eventId));
          whileHandling(wake);
        },
      },
    );
    await settled;
    await subscription.stop();
    return { reads, handled };
  }

  it('reads again at once after a full page, and after a short page only when a commit was announced meanwhile', async () => {
    // Full page: more may be waiting.
    const full = await readsFor([[1, 2], [3]], 2);
    expect(full.reads.slice(0, 2)).toEqual([undefined, 2n]);
    // A commit announced while the page was handled is read next, without waiting.
    const woken = await readsFor([[1], [2]], 10, (wake) => wake.notify());
    expect(woken.handled).toEqual(['e1', 'e2']);
    expect(woken.reads.slice(0, 2)).toEqual([undefined, 1n]);
  });
});

describe('catch-up subscription, after a short batch', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('does not read again until a wake-up or the poll, since the page was all the log showed', async () => {
    const wake = new WakeSignal();
    let reads = 0;
    const subscription = catchUpSubscription(async () => (++reads === 1 ? [event(1)] : []), wake, {
      batchSize: 10,
      onEvents: async () => undefined,
    });
    await jest.advanceTimersByTimeAsync(5);
    expect(reads).toBe(1);
    wake.notify();
    await jest.advanceTimersByTimeAsync(0);
    expect(reads).toBe(2);
    const stopping = subscription.stop();
    await jest.advanceTimersByTimeAsync(10);
    await stopping;
  });
});
