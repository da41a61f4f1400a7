import { randomUUID } from 'node:crypto';
import {
  EventStore,
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

  it('appends to several streams atomically: all or none', async () => {
    const wallet = stream('wallet');
    const order = stream('order');
    await store.append(wallet, [event('WalletOpened')], 'no_stream');
    const results = await store.appendAtomically([
      { streamId: wallet, events: [event('WalletDebited', { cents: 300 })], expected: 0 },
      { streamId: order, events: [event('OrderPlaced')], expected: 'no_stream' },
    ]);
    expect(results.map((r) => r.revision)).toEqual([1, 0]);
    expect(results[0].position.commit).toBe(results[1].position.commit);

    const entitlement = stream('entitlement');
    await expect(
      store.appendAtomically([
        { streamId: entitlement, events: [event('EntitlementGranted')], expected: 'no_stream' },
        { streamId: wallet, events: [event('WalletDebited', { cents: 300 })], expected: 0 }, // stale
      ]),
    ).rejects.toBeInstanceOf(WrongExpectedVersionError);
    expect(await store.readStream(entitlement)).toEqual([]);
    expect(await store.readStream(wallet)).toHaveLength(2);
  });

  it('treats a retried atomic append as a no-op', async () => {
    const a = stream('a');
    const b = stream('b');
    const appends = [
      { streamId: a, events: [event('One', {}, randomUUID())], expected: 'no_stream' as const },
      { streamId: b, events: [event('Two', {}, randomUUID())], expected: 'no_stream' as const },
    ];
    const first = await store.appendAtomically(appends);
    const again = await store.appendAtomically(appends);
    expect(again.map((r) => r.position.toString())).toEqual(first.map((r) => r.position.toString()));
    expect(await store.readStream(a)).toHaveLength(1);
  });
}
