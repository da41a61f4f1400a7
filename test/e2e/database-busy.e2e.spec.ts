import { Pool, PoolClient } from 'pg';
import { PG_POOL } from '../../src/platform/database/database.module';
import { startTestApp, TestApp } from '../support/app';
import { createTestDatabase, TestDatabase } from '../support/database';
import { json } from '../support/http';
import { PostgresGate, startPostgresGate } from '../support/postgres-gate';

const POOL_MAX = 2;

describe('requests while PostgreSQL gives no connection', () => {
  let db: TestDatabase;
  let gate: PostgresGate;
  let app: TestApp;
  let pool: Pool;
  const search = () => fetch(`${app.url}/v1/search?q=anything`);

  const expectBusy = async (response: Response) => {
    expect(response.status).toBe(503);
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await json(response)).toEqual({ message: 'The database is busy; try again shortly' });
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    gate = await startPostgresGate(db.url);
    app = await startTestApp({
      db: { ...db, url: gate.url },
      // No processors, no cache: only the requests below use the pool.
      env: {
        RUN_PROCESSORS: 'false',
        SEARCH_CACHE_MS: '0',
        DATABASE_POOL_MAX: String(POOL_MAX),
        DATABASE_CONNECT_TIMEOUT_MS: '300',
      },
    });
    pool = app.server.app.get<symbol, Pool>(PG_POOL);
  });

  afterAll(async () => {
    await app?.close();
    await gate?.close();
    await db?.drop();
  });

  it('answers 503 with Retry-After when every pooled connection stays busy past the wait, then serves again', async () => {
    expect((await search()).status).toBe(200);
    const held: PoolClient[] = [];
    for (let i = 0; i < POOL_MAX; i++) held.push(await pool.connect());
    try {
      await expectBusy(await search());
    } finally {
      for (const client of held) client.release();
    }
    expect((await search()).status).toBe(200);
  });

  it('answers 503 with Retry-After when the server has too many clients (53300), then serves again', async () => {
    // Empty the pool, so the next request needs a new connection.
    const idle: PoolClient[] = [];
    while (pool.idleCount > 0) idle.push(await pool.connect());
    for (const client of idle) client.release(true);
    expect(pool.totalCount).toBe(0);

    gate.refuseNewConnections(true);
    try {
      await expectBusy(await search());
    } finally {
      gate.refuseNewConnections(false);
    }
    expect((await search()).status).toBe(200);
  });
});
