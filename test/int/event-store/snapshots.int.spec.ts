import { randomUUID } from 'node:crypto';
import { Global, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { Pool } from 'pg';
import { AppConfig } from '../../../src/config/app-config';
import { ConfigModule } from '../../../src/config/config.module';
import {
  AppendResult,
  EventStore,
  ExpectedState,
  LogPosition,
  NewEvent,
  ReadAllOptions,
  ReadStreamOptions,
  RecordedEvent,
  StreamAppend,
  SubscribeOptions,
  Subscription,
  WrongExpectedVersionError,
} from '../../../src/event-store/event-store';
import { EventStoreModule } from '../../../src/event-store/event-store.module';
import { decideOnStream, foldStream, RecentFolds, SnapshotPolicy } from '../../../src/event-store/fold-stream';
import { PostgresEventStore } from '../../../src/event-store/postgres/postgres-event-store';
import { PostgresSnapshotStore } from '../../../src/event-store/postgres/postgres-snapshot-store';
import { Snapshot, SnapshotStore } from '../../../src/event-store/snapshot-store';
import { PG_POOL } from '../../../src/platform/database/database.module';
import { DomainError } from '../../../src/platform/errors/domain-error';
import { createTestDatabase, openPool, TestDatabase } from '../../support/database';
import { walletDecider, WalletCommand, WalletEvent, WalletState } from '../../support/sample-wallet';

/** The real store, with every stream read recorded: where it started and how many events came back. */
class SpyingEventStore extends EventStore {
  readonly reads: { streamId: string; fromRevision: number | undefined; count: number }[] = [];

  constructor(private readonly inner: EventStore) {
    super();
  }

  async readStream(streamId: string, options?: ReadStreamOptions): Promise<RecordedEvent[]> {
    const events = await this.inner.readStream(streamId, options);
    this.reads.push({ streamId, fromRevision: options?.fromRevision, count: events.length });
    return events;
  }

  append(streamId: string, events: NewEvent[], expected: ExpectedState): Promise<AppendResult> {
    return this.inner.append(streamId, events, expected);
  }
  appendAtomically(appends: StreamAppend[]): Promise<AppendResult[]> {
    return this.inner.appendAtomically(appends);
  }
  readAll(options: ReadAllOptions): Promise<RecordedEvent[]> {
    return this.inner.readAll(options);
  }
  subscribe(options: SubscribeOptions): Subscription {
    return this.inner.subscribe(options);
  }
  headPosition(): Promise<LogPosition | null> {
    return this.inner.headPosition();
  }
  ping(): Promise<void> {
    return this.inner.ping();
  }
  close(): Promise<void> {
    return this.inner.close();
  }
}

class BrokenSnapshotStore extends SnapshotStore {
  constructor(
    private readonly inner: SnapshotStore,
    private readonly broken: { load?: boolean; save?: boolean },
  ) {
    super();
  }
  load(streamId: string): Promise<Snapshot | null> {
    return this.broken.load ? Promise.reject(new Error('snapshot store down')) : this.inner.load(streamId);
  }
  save(snapshot: Snapshot): Promise<void> {
    return this.broken.save ? Promise.reject(new Error('snapshot store down')) : this.inner.save(snapshot);
  }
  discard(snapshot: Snapshot): Promise<void> {
    return this.inner.discard(snapshot);
  }
}

describe('snapshots on the PostgreSQL event store', () => {
  let db: TestDatabase;
  let pool: Pool;
  let store: SpyingEventStore;
  let snapshots: PostgresSnapshotStore;

  beforeAll(async () => {
    db = await createTestDatabase();
    pool = openPool(db.url, 12);
    store = new SpyingEventStore(new PostgresEventStore(pool));
    snapshots = new PostgresSnapshotStore(pool);
  });

  afterAll(async () => {
    await store?.close();
    await pool?.end();
    await db?.drop();
  });

  beforeEach(() => {
    store.reads.length = 0;
  });

  const walletId = () => `wallet-user-${randomUUID()}`;
  const deposit = (amount: number): WalletCommand => ({ type: 'Deposit', amount });
  const debit = (amount: number): WalletCommand => ({ type: 'Debit', amount });

  /** The whole stream folded, with no snapshot: what every decision must agree with. */
  const fullFold = async (streamId: string, upTo = Infinity) => {
    const events = (await store.readStream(streamId)).filter((e) => e.revision <= upTo);
    return events.reduce((state, e) => walletDecider().evolve(state, e as unknown as WalletEvent), walletDecider().initialState);
  };

  const snapshotRow = async (streamId: string) =>
    (
      await pool.query<{ revision: string; event_id: string; schema_version: number; state: WalletState; taken_at: Date }>(
        'SELECT revision, event_id, schema_version, state, taken_at FROM stream_snapshots WHERE stream_id = $1',
        [streamId],
      )
    ).rows[0];

  it('saves a snapshot once the stream is `every` events past the last one, naming the event at its revision', async () => {
    const streamId = walletId();
    const wallet = walletDecider({ version: 1, every: 3 });
    const revisions: (number | null)[] = [];

    for (let i = 1; i <= 10; i++) {
      await decideOnStream(store, streamId, wallet, deposit(i), { snapshots });
      const row = await snapshotRow(streamId);
      revisions.push(row ? Number(row.revision) : null);
    }

    expect(revisions).toEqual([null, null, 2, 2, 2, 5, 5, 5, 8, 8]);
    const row = await snapshotRow(streamId);
    expect(row.event_id).toBe((await store.readStream(streamId))[8].eventId);
    expect(row.schema_version).toBe(1);
    expect(row.state).toEqual(await fullFold(streamId, 8));
    expect(row.taken_at).toBeInstanceOf(Date);
  });

  it('saves the snapshot of a decision appended together with other streams', async () => {
    const streamId = walletId();
    const wallet = walletDecider({ version: 1, every: 1 });
    const receipt = () => [
      { streamId: `receipt-${randomUUID()}`, events: [{ type: 'Receipt', data: {} }], expected: 'no_stream' as const },
    ];

    await decideOnStream(store, streamId, wallet, deposit(5), { snapshots, alongside: receipt });
    await decideOnStream(store, streamId, wallet, debit(2), { snapshots, alongside: receipt });

    expect(await snapshotRow(streamId)).toMatchObject({ revision: '1', state: { balance: 3, transactions: 2, holds: {} } });
  });

  it('decides on a long stream reading only the events after its snapshot', async () => {
    const streamId = walletId();
    const policy: SnapshotPolicy = { version: 1, every: 100 };
    const wallet = walletDecider(policy);
    // 2,000 deposits of 1 appended straight to the log: a history that predates the snapshot policy.
    for (let batch = 0; batch < 4; batch++) {
      const events = Array.from({ length: 500 }, (_, i) => ({
        type: 'Deposited',
        data: { amount: 1, balance: batch * 500 + i + 1 },
      }));
      await store.append(streamId, events, batch === 0 ? 'no_stream' : batch * 500 - 1);
    }

    // The first fold reads everything once, and leaves a snapshot behind.
    expect((await foldStream(store, streamId, wallet.evolve, wallet.initialState, { snapshots, policy })).revision).toBe(1999);
    expect(store.reads).toEqual([{ streamId, fromRevision: undefined, count: 2000 }]);
    store.reads.length = 0;

    const { state } = await decideOnStream(store, streamId, wallet, debit(1), { snapshots });

    expect(store.reads).toEqual([{ streamId, fromRevision: 1999, count: 1 }]);
    expect(state).toEqual({ balance: 1999, transactions: 2001, holds: {} });
    expect(state).toEqual(await fullFold(streamId));
  });

  it('folds again from the state this process folded last, reading only what came since, and no snapshot', async () => {
    const streamId = walletId();
    const policy: SnapshotPolicy = { version: 1, every: 3 };
    const wallet = walletDecider(policy);
    const recent = new RecentFolds();
    const loads: string[] = [];
    const counting = new (class extends BrokenSnapshotStore {
      load(id: string) {
        loads.push(id);
        return super.load(id);
      }
    })(snapshots, {});
    const fold = () => foldStream(store, streamId, wallet.evolve, wallet.initialState, { snapshots: counting, policy, recent });
    for (let i = 1; i <= 5; i++) await decideOnStream(store, streamId, wallet, deposit(i), { snapshots });
    store.reads.length = 0;

    expect((await fold()).revision).toBe(4); // from the stored snapshot (at revision 2)
    await store.append(streamId, [{ type: 'Debited', data: { amount: 3, balance: 12 } }], 4); // written elsewhere
    const { state, revision } = await fold();

    expect(loads).toEqual([streamId]); // the second fold did not ask the snapshot store
    expect(store.reads.at(-1)).toEqual({ streamId, fromRevision: 4, count: 2 }); // the event it knew, and one since
    expect(revision).toBe(5);
    expect(state).toEqual(await fullFold(streamId));
    // Stored snapshots keep their pace: revision 5 is `every` past the one at 2, which the recent fold grew from.
    expect(Number((await snapshotRow(streamId)).revision)).toBe(5);
  });

  it('never trusts a recent fold whose event the log does not hold at its revision', async () => {
    const streamId = walletId();
    const policy: SnapshotPolicy = { version: 1, every: 100 };
    const wallet = walletDecider(policy);
    const recent = new RecentFolds();
    await decideOnStream(store, streamId, wallet, deposit(7), { snapshots });
    recent.remember(streamId, {
      state: { balance: 1_000, transactions: 0, holds: {} },
      revision: 0,
      eventId: randomUUID(), // another log's event
      version: 1,
      snapshotRevision: -1,
    });

    const { state } = await foldStream(store, streamId, wallet.evolve, wallet.initialState, { snapshots, policy, recent });

    expect(state).toEqual(await fullFold(streamId));
    expect(recent.get(streamId, 1)).toMatchObject({ revision: 0, state }); // replaced by what the log says
  });

  it('ignores a snapshot of another version, and folds the whole stream', async () => {
    const streamId = walletId();
    const wallet = walletDecider({ version: 2, every: 100 });
    await decideOnStream(store, streamId, wallet, deposit(10), { snapshots });
    const [event] = await store.readStream(streamId);
    await snapshots.save({
      streamId,
      revision: 0,
      eventId: event.eventId,
      version: 1,
      state: { balance: 1_000, transactions: 0, holds: {} },
    });
    store.reads.length = 0;

    await expect(decideOnStream(store, streamId, wallet, debit(11), { snapshots })).rejects.toBeInstanceOf(DomainError);
    const { state } = await decideOnStream(store, streamId, wallet, debit(4), { snapshots });

    expect(state).toEqual({ balance: 6, transactions: 2, holds: {} });
    expect(store.reads.map((r) => r.fromRevision)).toEqual([undefined, undefined]);
  });

  it('ignores and discards a snapshot whose event is not the log’s at its revision (one left from another log)', async () => {
    const streamId = walletId();
    const wallet = walletDecider({ version: 1, every: 100 });
    await decideOnStream(store, streamId, wallet, deposit(10), { snapshots });
    await decideOnStream(store, streamId, wallet, deposit(10), { snapshots });
    await snapshots.save({
      streamId,
      revision: 1,
      eventId: randomUUID(),
      version: 1,
      state: { balance: 1_000, transactions: 0, holds: {} },
    });
    store.reads.length = 0;

    const { state } = await decideOnStream(store, streamId, wallet, debit(5), { snapshots });

    expect(state).toEqual({ balance: 15, transactions: 3, holds: {} });
    expect(store.reads.map((r) => r.fromRevision)).toEqual([1, undefined]);
    expect(await snapshotRow(streamId)).toBeUndefined();
  });

  it('ignores a snapshot past the end of the stream', async () => {
    const streamId = walletId();
    const wallet = walletDecider({ version: 1, every: 100 });
    await decideOnStream(store, streamId, wallet, deposit(10), { snapshots });
    await snapshots.save({
      streamId,
      revision: 50,
      eventId: randomUUID(),
      version: 1,
      state: { balance: 1_000, transactions: 0, holds: {} },
    });
    store.reads.length = 0;

    const { state } = await decideOnStream(store, streamId, wallet, debit(1), { snapshots });

    expect(state).toEqual({ balance: 9, transactions: 2, holds: {} });
    expect(store.reads.map((r) => r.fromRevision)).toEqual([50, undefined]);
  });

  it('never fails a decision for a snapshot store that fails, on save or on load', async () => {
    const streamId = walletId();
    const wallet = walletDecider({ version: 1, every: 1 });

    await decideOnStream(store, streamId, wallet, deposit(10), { snapshots: new BrokenSnapshotStore(snapshots, { save: true }) });
    await decideOnStream(store, streamId, wallet, debit(3), { snapshots: new BrokenSnapshotStore(snapshots, { load: true }) });
    const { state } = await decideOnStream(store, streamId, wallet, debit(2), {
      snapshots: new BrokenSnapshotStore(snapshots, { load: true, save: true }),
    });

    expect(state).toEqual({ balance: 5, transactions: 3, holds: {} });
    expect(state).toEqual(await fullFold(streamId));
    expect(await snapshotRow(streamId)).toMatchObject({ revision: '1', state: { balance: 7 } }); // the one save that worked
  });

  it('never moves a snapshot back, and discards only the snapshot it was asked to', async () => {
    const streamId = walletId();
    const at = (revision: number, eventId = randomUUID()) => ({ streamId, revision, eventId, version: 1, state: { revision } });

    const newer = at(5);
    await snapshots.save(newer);
    await snapshots.save(at(3));
    expect(await snapshots.load(streamId)).toEqual(newer);

    await snapshots.discard(at(5));
    expect(await snapshots.load(streamId)).toEqual(newer);
    await snapshots.discard(newer);
    expect(await snapshots.load(streamId)).toBeNull();
  });

  it('is provided by the event store module, for any handler to inject', async () => {
    @Global()
    @Module({ providers: [{ provide: PG_POOL, useValue: pool }], exports: [PG_POOL] })
    class PoolModule {}
    const module = await Test.createTestingModule({
      imports: [ConfigModule.forRoot({ eventStore: 'postgres' } as AppConfig), PoolModule, EventStoreModule],
    }).compile();

    expect(module.get(SnapshotStore)).toBeInstanceOf(PostgresSnapshotStore);
    await module.close();
  });

  it('loses no update and never overdraws when many decisions race on one wallet', async () => {
    const streamId = walletId();
    const wallet = walletDecider({ version: 1, every: 5 });
    await decideOnStream(store, streamId, wallet, deposit(40), { snapshots });

    // Each debit is retried until it either lands or is refused on a fresh state: none may be lost to the race.
    const debitOne = async (): Promise<'debited' | 'refused'> => {
      for (;;) {
        try {
          await decideOnStream(store, streamId, wallet, debit(1), { snapshots });
          return 'debited';
        } catch (error) {
          if (error instanceof DomainError) return 'refused';
          if (!(error instanceof WrongExpectedVersionError)) throw error;
        }
      }
    };
    const outcomes = await Promise.all(Array.from({ length: 80 }, debitOne));

    expect(outcomes.filter((o) => o === 'debited')).toHaveLength(40);
    expect(store.reads.filter((r) => r.fromRevision !== undefined).length).toBeGreaterThan(40); // decided from snapshots
    const balances = (await store.readStream(streamId)).map((e) => e.data.balance);
    expect(balances).toEqual(Array.from({ length: 41 }, (_, i) => 40 - i));
    const row = await snapshotRow(streamId);
    expect(row.state).toEqual(await fullFold(streamId, Number(row.revision)));
    expect(
      (await foldStream(store, streamId, wallet.evolve, wallet.initialState, { snapshots, policy: wallet.snapshot })).state,
    ).toEqual({
      balance: 0,
      transactions: 41,
      holds: {},
    });
  });
});
