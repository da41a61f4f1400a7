import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import {
  AppendResult,
  EventStore,
  ExpectedState,
  LogPosition,
  NewEvent,
  ReadStreamOptions,
  RecordedEvent,
  StreamAppend,
  Subscription,
  WrongExpectedVersionError,
} from '../../../src/event-store/event-store';
import { decideOnStream, foldStream, SnapshotPolicy } from '../../../src/event-store/fold-stream';
import { Snapshot, SnapshotStore } from '../../../src/event-store/snapshot-store';
import { trackWrites } from '../../../src/event-store/write-tracker';
import { DomainError } from '../../../src/platform/errors/domain-error';
import { walletDecider, WalletCommand, WalletEvent, WalletState } from '../../support/sample-wallet';

/** The streams of a log in memory, enough for folding and deciding; reads are recorded. */
class MemoryEventStore extends EventStore {
  readonly streams = new Map<string, RecordedEvent[]>();
  readonly reads: { streamId: string; fromRevision: number; count: number }[] = [];
  private position = 0n;

  async append(streamId: string, events: NewEvent[], expected: ExpectedState): Promise<AppendResult> {
    const stream = this.streams.get(streamId) ?? [];
    // As the real stores: re-appending stored ids is a no-op reporting where they are.
    const stored = stream.filter((e) => events.some((n) => n.eventId === e.eventId));
    if (stored.length === events.length) return { revision: stored[stored.length - 1].revision, position: stored[0].position };
    const actual = stream.length - 1;
    if (expected === 'no_stream' ? actual !== -1 : typeof expected === 'number' && expected !== actual)
      throw new WrongExpectedVersionError(streamId, expected, actual);
    for (const event of events) {
      stream.push({
        eventId: event.eventId ?? randomUUID(),
        type: event.type,
        streamId,
        revision: stream.length,
        position: new LogPosition(++this.position, this.position),
        data: event.data,
        metadata: { schemaVersion: 1, occurredAt: new Date(0).toISOString() },
      });
    }
    this.streams.set(streamId, stream);
    return { revision: stream.length - 1, position: new LogPosition(this.position, this.position) };
  }

  async appendAtomically(appends: StreamAppend[]): Promise<AppendResult[]> {
    return Promise.all(appends.map((a) => this.append(a.streamId, a.events, a.expected)));
  }

  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const fromRevision = options.fromRevision ?? 0;
    const events = (this.streams.get(streamId) ?? []).slice(fromRevision);
    this.reads.push({ streamId, fromRevision, count: events.length });
    return events;
  }

  readAll(): Promise<RecordedEvent[]> {
    throw new Error('not needed here');
  }
  subscribe(): Subscription {
    throw new Error('not needed here');
  }
  async headPosition(): Promise<LogPosition | null> {
    return null;
  }
  async ping(): Promise<void> {}
  async close(): Promise<void> {}
}

/** Keeps snapshots as JSON text, so what is read back is what a database would give. */
class MemorySnapshotStore extends SnapshotStore {
  readonly rows = new Map<string, string>();
  readonly saved: Snapshot[] = [];

  async load(streamId: string): Promise<Snapshot | null> {
    const row = this.rows.get(streamId);
    return row ? (JSON.parse(row) as Snapshot) : null;
  }
  async save(snapshot: Snapshot): Promise<void> {
    this.saved.push(snapshot);
    const current = await this.load(snapshot.streamId);
    if (!current || current.revision < snapshot.revision) this.rows.set(snapshot.streamId, JSON.stringify(snapshot));
  }
  async discard(snapshot: Snapshot): Promise<void> {
    const current = await this.load(snapshot.streamId);
    if (current?.revision === snapshot.revision && current.eventId === snapshot.eventId) this.rows.delete(snapshot.streamId);
  }
}

const policy: SnapshotPolicy = { version: 1, every: 3 };
const wallet = walletDecider(policy);

const command: fc.Arbitrary<WalletCommand> = fc.oneof(
  fc.record({ type: fc.constant('Deposit' as const), amount: fc.integer({ min: 1, max: 50 }) }),
  fc.record({ type: fc.constant('Debit' as const), amount: fc.integer({ min: 1, max: 50 }) }),
  fc.record({
    type: fc.constant('Hold' as const),
    holdId: fc.constantFrom('a', 'b', 'c'),
    amount: fc.integer({ min: 1, max: 20 }),
  }),
  fc.record({ type: fc.constant('Release' as const), holdId: fc.constantFrom('a', 'b', 'c') }),
);

/** Runs the commands in order (refused ones change nothing) and returns what a full fold gives. */
async function decideAll(
  store: EventStore,
  streamId: string,
  commands: WalletCommand[],
  snapshots?: SnapshotStore,
  decider = wallet,
): Promise<WalletState> {
  let state = decider.initialState;
  for (const c of commands) {
    try {
      ({ state } = await decideOnStream(store, streamId, decider, c, { snapshots }));
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
    }
  }
  return state;
}

const fullFold = (store: EventStore, streamId: string) => foldStream(store, streamId, wallet.evolve, wallet.initialState);

describe('snapshots', () => {
  it('folding the tail onto a snapshot taken at any revision gives the full fold', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 1, maxLength: 60 }), fc.nat(), async (commands, pick) => {
        const store = new MemoryEventStore();
        await decideAll(store, 'wallet', commands);
        const history = store.streams.get('wallet') ?? [];
        fc.pre(history.length > 0);
        const revision = pick % history.length;
        const state = history
          .slice(0, revision + 1)
          .reduce((s, e) => wallet.evolve(s, e as unknown as WalletEvent), wallet.initialState);
        const snapshots = new MemorySnapshotStore();
        await snapshots.save({ streamId: 'wallet', revision, eventId: history[revision].eventId, version: 1, state });
        store.reads.length = 0;

        const fromSnapshot = await foldStream(store, 'wallet', wallet.evolve, wallet.initialState, { snapshots, policy });

        expect(store.reads).toEqual([{ streamId: 'wallet', fromRevision: revision, count: history.length - revision }]);
        expect(fromSnapshot).toEqual(await fullFold(store, 'wallet'));
      }),
      { numRuns: 200 },
    );
  });

  it('decides the same with snapshots as without, whatever the snapshot interval', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(command, { maxLength: 60 }), fc.integer({ min: 1, max: 8 }), async (commands, every) => {
        const [plain, snapshotted, snapshots] = [new MemoryEventStore(), new MemoryEventStore(), new MemorySnapshotStore()];
        const decider = walletDecider({ version: 1, every });

        const withoutSnapshots = await decideAll(plain, 'wallet', commands);
        const withSnapshots = await decideAll(snapshotted, 'wallet', commands, snapshots, decider);

        const data = (store: MemoryEventStore) => (store.streams.get('wallet') ?? []).map((e) => [e.type, e.data]);
        expect(data(snapshotted)).toEqual(data(plain));
        expect(withSnapshots).toEqual(withoutSnapshots);
        // Each snapshot is `every` or more events past the one before, and names the event at its revision.
        const revisions = snapshots.saved.map((s) => s.revision);
        revisions.forEach((revision, i) => expect(revision - (i === 0 ? -1 : revisions[i - 1])).toBeGreaterThanOrEqual(every));
        for (const snapshot of snapshots.saved)
          expect(snapshot.eventId).toBe(snapshotted.streams.get('wallet')![snapshot.revision].eventId);
        // No decision read more than `every` events past the snapshot it started from.
        for (const read of snapshotted.reads) expect(read.count).toBeLessThanOrEqual(every);
      }),
      { numRuns: 200 },
    );
  });

  it('ignores a snapshot of another version, and one whose event the log has not at its revision', async () => {
    const store = new MemoryEventStore();
    const snapshots = new MemorySnapshotStore();
    await decideAll(store, 'wallet', [
      { type: 'Deposit', amount: 10 },
      { type: 'Debit', amount: 3 },
    ]);
    const [first] = store.streams.get('wallet')!;
    const bogus = { balance: 1_000, transactions: 0, holds: {} };
    const expected = { state: { balance: 7, transactions: 2, holds: {} }, revision: 1 };

    await snapshots.save({ streamId: 'wallet', revision: 0, eventId: first.eventId, version: 2, state: bogus });
    expect(await foldStream(store, 'wallet', wallet.evolve, wallet.initialState, { snapshots, policy })).toEqual(expected);

    snapshots.rows.clear();
    await snapshots.save({ streamId: 'wallet', revision: 0, eventId: randomUUID(), version: 1, state: bogus });
    expect(await foldStream(store, 'wallet', wallet.evolve, wallet.initialState, { snapshots, policy })).toEqual(expected);
    expect(snapshots.rows.size).toBe(0); // discarded, so a fresh one can take its place
  });

  it('does not save the state of a decision whose events turned out to be stored already', async () => {
    type Paid = { type: 'Paid'; eventId: string; data: { amount: number } };
    // Not idempotent itself: the event id derived from the payment is what makes a retry a no-op.
    const payments = {
      decide: (payment: { id: string; amount: number }): Paid[] => [
        { type: 'Paid', eventId: payment.id, data: { amount: payment.amount } },
      ],
      evolve: (total: number, event: Paid) => total + event.data.amount,
      initialState: 0,
      snapshot: { version: 1, every: 1 },
    };
    const [store, snapshots] = [new MemoryEventStore(), new MemorySnapshotStore()];
    const payment = { id: randomUUID(), amount: 5 };

    await decideOnStream(store, 'payments', payments, payment, { snapshots });
    snapshots.rows.clear();
    await decideOnStream(store, 'payments', payments, payment, { snapshots });

    expect(store.streams.get('payments')).toHaveLength(1);
    expect(snapshots.saved.map((s) => s.state)).toEqual([5]);
  });

  it('does not snapshot a state that would not read back the same from JSON', async () => {
    type Seen = { type: 'Seen'; data: { id: string } };
    const seen = {
      decide: (id: string): Seen[] => [{ type: 'Seen', data: { id } }],
      evolve: (state: { ids: Set<string> }, event: Seen) => ({ ids: new Set([...state.ids, event.data.id]) }),
      initialState: { ids: new Set<string>() },
      snapshot: { version: 1, every: 1 },
    };
    const snapshots = new MemorySnapshotStore();

    await decideOnStream(new MemoryEventStore(), 'seen', seen, 'a', { snapshots });

    expect(snapshots.saved).toEqual([]);
  });

  it('reports the snapshot’s event for a decision that appends nothing and read no event past it', async () => {
    const store = new MemoryEventStore();
    const snapshots = new MemorySnapshotStore();
    await decideAll(
      store,
      'wallet',
      [1, 2, 3].map((amount) => ({ type: 'Deposit' as const, amount })),
      snapshots,
    );
    const [, , last] = store.streams.get('wallet')!;
    expect((await snapshots.load('wallet'))?.revision).toBe(last.revision);

    const noop = await trackWrites(() =>
      decideOnStream(store, 'wallet', wallet, { type: 'Release', holdId: 'none' }, { snapshots }),
    );

    expect(noop.result.events).toEqual([]);
    expect(store.reads.at(-1)).toEqual({ streamId: 'wallet', fromRevision: last.revision, count: 1 });
    expect(noop.lastPosition?.compare(last.position)).toBe(0);
    expect([...noop.eventTypes]).toEqual(['Deposited']);
  });
});
