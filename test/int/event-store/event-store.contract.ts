import { randomUUID } from 'node:crypto';
import {
  EventStore,
  ExpectedState,
  LogPosition,
  NewEvent,
  RecordedEvent,
  WrongExpectedVersionError,
} from '../../../src/event-store/event-store';

export interface ContractSubject {
  store: EventStore;
  close(): Promise<void>;
}

const event = (type: string, data: Record<string, unknown> = {}, eventId?: string): NewEvent => ({ type, data, eventId });
const stream = (prefix = 'test') => `${prefix}-${randomUUID()}`;

/** The behaviour every event store adapter must show; run once per adapter. */
export function eventStoreContract(open: () => Promise<ContractSubject>) {
  let subject: ContractSubject;
  let store: EventStore;

  beforeAll(async () => {
    subject = await open();
    store = subject.store;
  });
  afterAll(async () => subject?.close());

  it('appends to a stream and reads it back in revision order', async () => {
    const id = stream();
    const first = await store.append(id, [event('Opened', { n: 1 }), event('Noted', { n: 2 })], 'no_stream');
    expect(first.revision).toBe(1);
    const second = await store.append(id, [event('Noted', { n: 3 })], 1);
    expect(second.revision).toBe(2);
    expect(second.position.isAfter(first.position)).toBe(true);

    const events = await store.readStream(id);
    expect(events.map((e) => [e.type, e.revision, e.data.n])).toEqual([
      ['Opened', 0, 1],
      ['Noted', 1, 2],
      ['Noted', 2, 3],
    ]);
    expect(events[0].metadata.schemaVersion).toBe(1);
    expect(typeof events[0].metadata.occurredAt).toBe('string');
    expect(await store.readStream(stream())).toEqual([]);
  });

  it('reads a stream from a revision, inclusive, as snapshots do, and nothing from past its end', async () => {
    const id = stream();
    const appended = Array.from({ length: 5 }, (_, n) => event('Noted', { n }, randomUUID()));
    await store.append(id, appended, 'no_stream');

    const tail = await store.readStream(id, { fromRevision: 3 });
    expect(tail.map((e) => [e.revision, e.eventId])).toEqual([
      [3, appended[3].eventId],
      [4, appended[4].eventId],
    ]);
    expect((await store.readStream(id, { fromRevision: 1, maxCount: 2 })).map((e) => e.revision)).toEqual([1, 2]);
    expect(await store.readStream(id, { fromRevision: 5 })).toEqual([]);
  });

  it('lets exactly one of two appends with the same expected revision win', async () => {
    const id = stream();
    await store.append(id, [event('Opened')], 'no_stream');
    const outcomes = await Promise.allSettled([store.append(id, [event('A')], 0), store.append(id, [event('B')], 0)]);
    const won = outcomes.filter((o) => o.status === 'fulfilled');
    const lost = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect(lost[0].reason).toBeInstanceOf(WrongExpectedVersionError);
    expect(lost[0].reason.actual).toBe(1);
    expect(await store.readStream(id)).toHaveLength(2);
  });

  it('refuses an expected revision that is behind or ahead of the stream', async () => {
    const id = stream();
    await store.append(id, [event('Opened'), event('Noted')], 'no_stream');
    await expect(store.append(id, [event('X')], 0)).rejects.toBeInstanceOf(WrongExpectedVersionError);
    await expect(store.append(id, [event('X')], 5)).rejects.toBeInstanceOf(WrongExpectedVersionError);
    expect(await store.readStream(id)).toHaveLength(2);
  });

  it('enforces no_stream and exists', async () => {
    const id = stream();
    await expect(store.append(id, [event('Noted')], 'exists')).rejects.toBeInstanceOf(WrongExpectedVersionError);
    await store.append(id, [event('Created')], 'no_stream');
    const second = store.append(id, [event('Created')], 'no_stream');
    await expect(second).rejects.toBeInstanceOf(WrongExpectedVersionError);
    await expect(second).rejects.toMatchObject({ actual: 0 });
    await expect(store.append(id, [event('Noted')], 'exists')).resolves.toMatchObject({ revision: 1 });
    await expect(store.append(id, [event('Noted')], 'any')).resolves.toMatchObject({ revision: 2 });
  });

  it('treats appending an already stored event id as a no-op', async () => {
    const id = stream();
    const eventId = randomUUID();
    const first = await store.append(id, [event('Paid', { cents: 500 }, eventId)], 'no_stream');
    const retry = await store.append(id, [event('Paid', { cents: 500 }, eventId)], 'no_stream');
    const retryAny = await store.append(id, [event('Paid', { cents: 500 }, eventId)], 'any');
    expect(retry.revision).toBe(first.revision);
    expect(retryAny.revision).toBe(first.revision);
    expect(await store.readStream(id)).toHaveLength(1);
  });

  it('keeps many concurrent `any` appends to one stream gapless', async () => {
    const id = stream();
    await Promise.all(Array.from({ length: 40 }, (_, i) => store.append(id, [event('Tick', { i })], 'any')));
    const events = await store.readStream(id);
    expect(events.map((e) => e.revision)).toEqual(Array.from({ length: 40 }, (_, i) => i));
  });

  it('delivers every event exactly once, in one order, to a subscriber running during 16 concurrent writers', async () => {
    const head = (await store.headPosition()) ?? undefined;
    const writers = 16;
    const appendsEach = 500;
    const total = writers * appendsEach;
    const runTag = randomUUID();
    const received: RecordedEvent[] = [];
    const batches: string[] = [];
    let resolveDone: () => void;
    const done = new Promise<void>((r) => (resolveDone = r));
    const subscription = store.subscribe({
      after: head,
      onEvents: async (events) => {
        batches.push(`${events.length}: ${events[0].position}..${events[events.length - 1].position}`);
        for (const e of events) if (e.data.run === runTag) received.push(e);
        if (received.length >= total) resolveDone();
      },
    });
    const streams = Array.from({ length: 200 }, () => stream('load'));
    await Promise.all(
      Array.from({ length: writers }, async (_, w) => {
        for (let i = 0; i < appendsEach; i++) {
          const target = streams[Math.floor(Math.random() * streams.length)];
          await store.append(target, [event('Load', { run: runTag, writer: w, i })], 'any');
        }
      }),
    );
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`received ${received.length}/${total}`)), 30_000);
    });
    await Promise.race([done, timeout]).finally(() => clearTimeout(timer));
    await subscription.stop();

    const firstSeen = new Map<string, number>();
    const duplicates: string[] = [];
    received.forEach((e, index) => {
      if (firstSeen.has(e.eventId))
        duplicates.push(
          `${e.position} at ${index}, first at ${firstSeen.get(e.eventId)}; batches ${JSON.stringify(batches.slice(-5))}`,
        );
      else firstSeen.set(e.eventId, index);
    });
    expect({ duplicates, distinct: firstSeen.size }).toEqual({ duplicates: [], distinct: total });
    for (let i = 1; i < received.length; i++) expect(received[i].position.isAfter(received[i - 1].position)).toBe(true);
    // Each writer's own events arrive in the order it wrote them.
    const lastByWriter = new Map<number, number>();
    for (const e of received) {
      const writer = e.data.writer as number;
      expect(e.data.i).toBe((lastByWriter.get(writer) ?? -1) + 1);
      lastByWriter.set(writer, e.data.i as number);
    }
    // A later full read sees the same order: nothing committed late was skipped.
    const reread: RecordedEvent[] = [];
    let after: LogPosition | undefined = head;
    for (;;) {
      const page = await store.readAll({ after, maxCount: 2_000 });
      if (page.length === 0) break;
      reread.push(...page.filter((e) => e.data.run === runTag));
      after = page[page.length - 1].position;
    }
    expect(reread.map((e) => e.eventId)).toEqual(received.map((e) => e.eventId));
  });

  describe('atomic appends to several streams', () => {
    const types = async (id: string) => (await store.readStream(id)).map((e) => [e.type, e.revision]);
    const failure = async (appending: Promise<unknown>): Promise<WrongExpectedVersionError> => {
      const error = await appending.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(WrongExpectedVersionError);
      return error as WrongExpectedVersionError;
    };

    it('lands every stream at its own revision, in one commit a reader reaches', async () => {
      const before = (await store.headPosition()) ?? undefined;
      const wallet = stream('wallet');
      const ledger = stream('ledger');
      const order = stream('order');
      await store.append(wallet, [event('WalletOpened')], 'no_stream');
      await store.append(ledger, [event('LedgerOpened'), event('LedgerNoted')], 'no_stream');

      const results = await store.appendAtomically([
        { streamId: wallet, events: [event('WalletDebited', { cents: 300 })], expected: 0 },
        { streamId: order, events: [event('OrderPlaced'), event('OrderPaid')], expected: 'no_stream' },
        { streamId: ledger, events: [event('LedgerDebited')], expected: 'exists' },
      ]);

      expect(results.map((r) => r.revision)).toEqual([1, 1, 2]);
      expect(new Set(results.map((r) => r.position.commit)).size).toBe(1);
      expect(await types(wallet)).toEqual([
        ['WalletOpened', 0],
        ['WalletDebited', 1],
      ]);
      expect(await types(order)).toEqual([
        ['OrderPlaced', 0],
        ['OrderPaid', 1],
      ]);
      expect(await types(ledger)).toEqual([
        ['LedgerOpened', 0],
        ['LedgerNoted', 1],
        ['LedgerDebited', 2],
      ]);

      // Read-your-writes waits until projections pass the reported position: the log must reach it.
      const mine = new Set([wallet, order, ledger]);
      let stored: RecordedEvent[] = [];
      // PostgreSQL shows a commit to readers once older transactions (of any database on the server) end.
      for (const deadline = Date.now() + 15_000; stored.length < 7 && Date.now() < deadline;) {
        stored = (await store.readAll({ after: before, maxCount: 1_000 })).filter((e) => mine.has(e.streamId));
        if (stored.length < 7) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(stored.slice(0, 3).map((e) => e.type)).toEqual(['WalletOpened', 'LedgerOpened', 'LedgerNoted']);
      // Inside the transaction each stream keeps its order; the streams' order is the adapter's.
      const atomic = stored.slice(3).map((e) => e.type);
      expect([...atomic].sort()).toEqual(['LedgerDebited', 'OrderPaid', 'OrderPlaced', 'WalletDebited']);
      expect(atomic.indexOf('OrderPlaced')).toBeLessThan(atomic.indexOf('OrderPaid'));
      const reported = results.reduce((a, b) => (b.position.isAfter(a.position) ? b : a)).position;
      expect(stored[stored.length - 1].position.compare(reported)).toBeGreaterThanOrEqual(0);
    });

    it('lands nothing when one expectation fails, and names the stream that failed', async () => {
      const fresh = stream('entitlement');
      const wallet = stream('wallet');
      const existing = stream('existing');
      await store.append(wallet, [event('WalletOpened'), event('WalletCredited')], 'no_stream');
      await store.append(existing, [event('Opened')], 'no_stream');
      const cases: [string, ExpectedState, number][] = [
        [wallet, 0, 1], // stale
        [wallet, 5, 1], // ahead
        [existing, 'no_stream', 0],
        [stream('missing'), 'exists', -1],
      ];
      for (const [failing, expected, actual] of cases) {
        const error = await failure(
          store.appendAtomically([
            { streamId: fresh, events: [event('EntitlementGranted')], expected: 'no_stream' },
            { streamId: failing, events: [event('Failing')], expected },
            { streamId: failing === wallet ? existing : wallet, events: [event('Other')], expected: 'any' },
          ]),
        );
        expect([error.streamId, error.expected, error.actual]).toEqual([failing, expected, actual]);
        expect(await store.readStream(fresh)).toEqual([]);
        expect(await store.readStream(wallet)).toHaveLength(2);
        expect(await store.readStream(existing)).toHaveLength(1);
        expect(await store.readStream(failing)).toHaveLength(actual + 1);
      }
    });

    it('mixes a new stream with existing ones, and refuses to create the new one twice', async () => {
      const slug = stream('slug');
      const vendor = stream('vendor');
      await store.append(vendor, [event('VendorRegistered')], 'no_stream');
      const first = await store.appendAtomically([
        { streamId: slug, events: [event('SlugReserved')], expected: 'no_stream' },
        { streamId: vendor, events: [event('VendorRenamed')], expected: 'any' },
      ]);
      expect(first.map((r) => r.revision)).toEqual([0, 1]);

      const error = await failure(
        store.appendAtomically([
          { streamId: vendor, events: [event('VendorRenamed')], expected: 1 },
          { streamId: slug, events: [event('SlugReserved')], expected: 'no_stream' },
        ]),
      );
      expect([error.streamId, error.actual]).toEqual([slug, 0]);
      expect(await types(slug)).toEqual([['SlugReserved', 0]]);
      expect(await types(vendor)).toEqual([
        ['VendorRegistered', 0],
        ['VendorRenamed', 1],
      ]);
    });

    it('treats re-appending the same event ids as a no-op', async () => {
      const account = stream('account');
      const device = stream('device');
      const session = stream('session');
      await store.append(account, [event('AccountOpened')], 'no_stream');
      const appends = [
        { streamId: account, events: [event('DeviceApproved', {}, randomUUID())], expected: 0 as ExpectedState },
        {
          streamId: device,
          events: [event('DeviceCreated', {}, randomUUID()), event('DeviceBound', {}, randomUUID())],
          expected: 'no_stream' as ExpectedState,
        },
        { streamId: session, events: [event('SessionOpened', {}, randomUUID())], expected: 'no_stream' as ExpectedState },
      ];
      const first = await store.appendAtomically(appends);
      const again = await store.appendAtomically(appends);
      expect(again.map((r) => r.revision)).toEqual(first.map((r) => r.revision));
      expect(first.map((r) => r.revision)).toEqual([1, 1, 0]);
      expect(await store.readStream(account)).toHaveLength(2);
      expect(await store.readStream(device)).toHaveLength(2);
      expect(await store.readStream(session)).toHaveLength(1);
    });
  });
}
