import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { WrongExpectedVersionError } from '../../../src/event-store/event-store';
import { Decider, decideOnce, decideOnStream, retryOnConflict } from '../../../src/event-store/fold-stream';
import { PostgresEventStore } from '../../../src/event-store/postgres/postgres-event-store';
import { trackWrites } from '../../../src/event-store/write-tracker';
import { DomainError } from '../../../src/platform/errors/domain-error';
import { createTestDatabase, openPool, TestDatabase } from '../../support/database';

type Counted = { type: 'Counted'; data: { by: number; total: number } };

/** A counter that may not pass `max`: enough to show a decision made again on fresh state. */
const counter: Decider<{ by: number; max?: number }, number, Counted> = {
  decide(command, total) {
    if (command.by === 0) return [];
    if (command.max !== undefined && total + command.by > command.max) throw new DomainError('unprocessable', 'over the limit');
    return [{ type: 'Counted', data: { by: command.by, total: total + command.by } }];
  },
  evolve: (_total, event) => event.data.total,
  initialState: 0,
};

describe('decideOnStream', () => {
  let db: TestDatabase;
  let pool: Pool;
  let store: PostgresEventStore;

  beforeAll(async () => {
    db = await createTestDatabase();
    pool = openPool(db.url, 12);
    store = new PostgresEventStore(pool);
  });

  afterAll(async () => {
    await store?.close();
    await pool?.end();
    await db?.drop();
  });

  const totals = async (streamId: string) => (await store.readStream(streamId)).map((e) => e.data.total);

  it('decides again on the fresh state when another writer got there first, so no update is lost', async () => {
    const streamId = `counter-${randomUUID()}`;

    await Promise.all([1, 2, 3, 4].map(() => decideOnStream(store, streamId, counter, { by: 1 })));

    expect(await totals(streamId)).toEqual([1, 2, 3, 4]);
  });

  it('fails with the decider’s error when the command no longer holds on the fresh state', async () => {
    const streamId = `counter-${randomUUID()}`;

    const results = await Promise.allSettled([1, 2, 3].map(() => decideOnStream(store, streamId, counter, { by: 1, max: 2 })));

    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(2);
    expect(results.find((r) => r.status === 'rejected')).toMatchObject({ reason: expect.any(DomainError) });
    expect(await totals(streamId)).toEqual([1, 2]);
  });

  it('appends `alongside` in the same transaction, and nothing at all when one of them is refused', async () => {
    const reservation = `reservation-${randomUUID()}`;
    const reserve = () => [{ streamId: reservation, events: [{ type: 'Reserved', data: {} }], expected: 'no_stream' as const }];
    const [first, second] = [`counter-${randomUUID()}`, `counter-${randomUUID()}`];

    await decideOnStream(store, first, counter, { by: 1 }, { alongside: reserve });
    await expect(decideOnStream(store, second, counter, { by: 1 }, { alongside: reserve })).rejects.toBeInstanceOf(
      WrongExpectedVersionError,
    );

    expect(await totals(first)).toEqual([1]);
    expect(await totals(second)).toEqual([]);
    expect(await store.readStream(reservation)).toHaveLength(1);
  });

  it('runs `beforeAppend` only for a decision that appends', async () => {
    const streamId = `counter-${randomUUID()}`;
    const beforeAppend = jest.fn(async () => undefined);

    await decideOnStream(store, streamId, counter, { by: 0 }, { beforeAppend });
    expect(beforeAppend).not.toHaveBeenCalled();
    await decideOnStream(store, streamId, counter, { by: 2 }, { beforeAppend });
    expect(beforeAppend).toHaveBeenCalledTimes(1);
  });

  it('lets a caller find its stream again after a conflict: racing first claims of a name share one stream', async () => {
    const name = `name-${randomUUID()}`;
    // Like a listing slug: the name's reservation points at the stream; the first claim creates both.
    const claim = () =>
      retryOnConflict(async () => {
        const reservation = await store.readStream(name);
        const target = (reservation[0]?.data.target as string | undefined) ?? `counter-${randomUUID()}`;
        const reserve = { streamId: name, events: [{ type: 'Reserved', data: { target } }], expected: 'no_stream' as const };
        await decideOnce(store, target, counter, { by: 1 }, { alongside: () => (reservation.length === 0 ? [reserve] : []) });
        return target;
      });

    const targets = await Promise.all([claim(), claim(), claim()]);

    expect(new Set(targets).size).toBe(1);
    expect(await totals(targets[0])).toEqual([1, 2, 3]);
  });

  it('reports what a decision that appends nothing rests on, so a request waits for another writer’s change', async () => {
    const streamId = `counter-${randomUUID()}`;
    const made = await store.append(streamId, [{ type: 'Counted', data: { by: 1, total: 1 } }], 'no_stream');

    // As the twin of a request that made the change: nothing to decide, but its answer is that change.
    const twin = await trackWrites(() => decideOnStream(store, streamId, counter, { by: 0 }));

    expect(twin.result).toEqual({ events: [], state: 1 });
    expect(twin.lastPosition?.compare(made.position)).toBe(0);
    expect([...twin.eventTypes]).toEqual(['Counted']);
    const onNothing = await trackWrites(() => decideOnStream(store, `counter-${randomUUID()}`, counter, { by: 0 }));
    expect(onNothing.lastPosition).toBeUndefined();
  });
});
