import { createServer } from 'node:net';
import { Pool } from 'pg';
import { EventStoreUnavailableError } from '../../../src/event-store/event-store';
import { PostgresEventStore } from '../../../src/event-store/postgres/postgres-event-store';
import { createTestDatabase, TestDatabase } from '../../support/database';

describe('PostgreSQL event store without a connection', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => db?.drop());

  const one = [{ type: 'X', data: {} }];
  const everyOperation = (store: PostgresEventStore) => [
    store.append(`a-${Date.now()}`, one, 'any'),
    store.append(`b-${Date.now()}`, one, 'no_stream'),
    store.appendAtomically([
      { streamId: 'c', events: one, expected: 'any' },
      { streamId: 'd', events: one, expected: 'any' },
    ]),
    store.readStream('a'),
    store.readAll({ maxCount: 1 }),
    store.headPosition(),
    store.ping(),
  ];
  const allUnavailable = async (operations: Promise<unknown>[]) =>
    (await Promise.allSettled(operations)).map((o) => o.status === 'rejected' && o.reason instanceof EventStoreUnavailableError);

  it('reports EventStoreUnavailableError when the server cannot be reached', async () => {
    const probe = createServer();
    const port = await new Promise<number>((resolve) =>
      probe.listen(0, '127.0.0.1', () => resolve((probe.address() as { port: number }).port)),
    );
    await new Promise((resolve) => probe.close(resolve));
    const pool = new Pool({ connectionString: `postgres://postgres@127.0.0.1:${port}/none`, max: 2 });
    pool.on('error', () => undefined);
    const store = new PostgresEventStore(pool);
    const operations = everyOperation(store);
    expect(await allUnavailable(operations)).toEqual(operations.map(() => true));
    await store.close();
    await pool.end();
  });

  it('reports EventStoreUnavailableError when the pool has no connection to give', async () => {
    const pool = new Pool({ connectionString: db.url, max: 1, connectionTimeoutMillis: 200 });
    pool.on('error', () => undefined);
    const store = new PostgresEventStore(pool);
    const held = await pool.connect();
    try {
      const operations = everyOperation(store);
      expect(await allUnavailable(operations)).toEqual(operations.map(() => true));
    } finally {
      held.release();
    }
    await expect(store.append(`after-${Date.now()}`, one, 'no_stream')).resolves.toMatchObject({ revision: 0 });
    await store.close();
    await pool.end();
  });
});
