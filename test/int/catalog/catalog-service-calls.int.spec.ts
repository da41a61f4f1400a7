import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { DataSource, QueryRunner } from 'typeorm';
import { PostgresEventStore } from '../../../src/event-store/postgres/postgres-event-store';
import { CatalogProjection } from '../../../src/modules/catalog/read-models/catalog.projection';
import { CallOutcome } from '../../../src/modules/network/domain/service-call.decider';
import { NetworkEvents } from '../../../src/modules/network/events';
import { CatalogServiceCalls1764091000000 } from '../../../src/platform/database/migrations/1764091000000-catalog-service-calls';
import { createTestDatabase, openDataSource, openPool, TestDatabase } from '../../support/database';

/**
 * The catalog counts settled service calls itself (the trust score's success rate). The migration that
 * moved the count into the catalog starts it from the log as of the catalog projection's checkpoint,
 * so the projection, going on from there, neither counts a call twice nor misses one.
 */
describe('the catalog’s count of settled service calls', () => {
  let database: TestDatabase;
  let pool: Pool;
  let dataSource: DataSource;
  let store: PostgresEventStore;
  const migration = new CatalogServiceCalls1764091000000();
  const runner = () => ({ query: (text: string) => pool.query(text).then((r) => r.rows) }) as unknown as QueryRunner;

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = openPool(database.url, 3);
    dataSource = await openDataSource(database.url);
    store = new PostgresEventStore(pool);
  });
  afterAll(async () => {
    await store?.close();
    await dataSource?.destroy();
    await pool?.end();
    await database?.drop();
  });

  const listing = async (): Promise<string> => {
    const id = randomUUID();
    await pool.query(
      `INSERT INTO listings (id, vendor_id, slug, type, title, description, price_cents, status, created_at, updated_at)
       VALUES ($1, gen_random_uuid(), $2, 'mcp', 'Live', 'A live service', 0, 'published', now(), now())`,
      [id, `live-${id.slice(0, 8)}`],
    );
    return id;
  };
  const settle = async (listingId: string, outcome: CallOutcome): Promise<string> => {
    const callId = randomUUID();
    const data = {
      callId,
      callerId: randomUUID(),
      listingId,
      vendorId: randomUUID(),
      tool: 'echo',
      costCents: 5,
      sessionId: null,
      outcome,
      chargedCents: outcome === 'success' ? 5 : 0,
      durationMs: 10,
      error: null,
      calledAt: new Date().toISOString(),
    };
    const streamId = `service-call-${callId}`;
    await store.append(streamId, [{ type: NetworkEvents.ServiceCalled, data, eventId: randomUUID() }], 'no_stream');
    return streamId;
  };
  const rateOf = async (listingId: string) =>
    (await pool.query('SELECT service_success_rate AS rate FROM listings WHERE id = $1', [listingId])).rows[0].rate;
  const countsOf = async (listingId: string) =>
    (
      await pool.query(
        'SELECT settled_calls::int AS settled, successes::int AS successes FROM listing_service_calls WHERE listing_id = $1',
        [listingId],
      )
    ).rows[0];

  it('starts from the calls the log settled up to the catalog’s checkpoint; the projection counts the rest', async () => {
    const listingId = await listing();
    for (const outcome of ['success', 'success', 'upstream_error', 'abandoned'] as const) await settle(listingId, outcome);
    const [{ head }] = (await pool.query('SELECT max(position) AS head FROM events')).rows;
    const [{ xid }] = (await pool.query('SELECT transaction_id::text AS xid FROM events WHERE position = $1', [head])).rows;
    await pool.query(
      `INSERT INTO processor_checkpoints (name, commit_position, prepare_position) VALUES ('catalog', $1, $2)
       ON CONFLICT (name) DO UPDATE SET commit_position = $1, prepare_position = $2`,
      [xid, head],
    );
    const later = await settle(listingId, 'success');
    // What the network projection used to write, the later call included.
    await pool.query('UPDATE listings SET service_success_rate = 0.75 WHERE id = $1', [listingId]);

    await migration.down(runner());
    await migration.up(runner());
    expect(await countsOf(listingId)).toEqual({ settled: 3, successes: 2 });
    expect(await rateOf(listingId)).toBeCloseTo(2 / 3, 12);
    expect((await pool.query(`SELECT rebuild_requested FROM processor_checkpoints WHERE name = 'catalog'`)).rows).toEqual([
      { rebuild_requested: false },
    ]);

    const [event] = await store.readStream(later);
    await dataSource.transaction((tx) => new CatalogProjection().apply(event, tx));
    expect(await countsOf(listingId)).toEqual({ settled: 4, successes: 3 });
    expect(await rateOf(listingId)).toBe(0.75);
  });

  it('has the catalog rebuilt from the log when calls were settled but the log is in another store', async () => {
    const elsewhere = await createTestDatabase();
    const other = openPool(elsewhere.url, 1);
    const query = { query: (text: string) => other.query(text).then((r) => r.rows) } as unknown as QueryRunner;
    try {
      await other.query(`INSERT INTO processor_checkpoints (name) VALUES ('catalog')`);
      await migration.down(query);
      await migration.up(query);
      const requested = `SELECT rebuild_requested FROM processor_checkpoints WHERE name = 'catalog'`;
      expect((await other.query(requested)).rows).toEqual([{ rebuild_requested: false }]);
      await other.query(
        `INSERT INTO service_calls (id, listing_id, caller_id, tool, cost_cents, outcome, duration_ms, called_at)
         VALUES (gen_random_uuid(), gen_random_uuid(), gen_random_uuid(), 'echo', 5, 'success', 10, now())`,
      );
      await migration.down(query);
      await migration.up(query);
      expect((await other.query(requested)).rows).toEqual([{ rebuild_requested: true }]);
    } finally {
      await other.end();
      await elsewhere.drop();
    }
  });
});
