import { randomBytes } from 'node:crypto';
import { Client, Pool } from 'pg';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../../src/platform/database/database.module';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { adminUrl, databaseUrl } = require('./test-databases');

export interface TestDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

/** A fresh, migrated database for one test file, cloned from this run's template. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const runId = process.env.SVC_TEST_RUN_ID;
  if (!runId) throw new Error('SVC_TEST_RUN_ID is not set: run the tests through jest (npm test)');
  const name = `${runId}_${randomBytes(4).toString('hex')}`;
  await withAdmin((admin) => admin.query(`CREATE DATABASE ${name} TEMPLATE ${runId}_tpl`));
  return {
    name,
    url: databaseUrl(name),
    drop: () => withAdmin((admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
}

export async function withAdmin<T>(work: (admin: Client) => Promise<T>): Promise<T> {
  const admin = new Client({ connectionString: adminUrl() });
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.end();
  }
}

export function openPool(url: string, max = 20): Pool {
  const pool = new Pool({ connectionString: url, max });
  pool.on('error', () => undefined);
  return pool;
}

export function openDataSource(url: string): Promise<DataSource> {
  return new DataSource(dataSourceOptions(url)).initialize();
}

/** The Redis URL for tests, or undefined when Redis is not reachable (its tests then skip). */
export function testRedisUrl(): string | undefined {
  return process.env.SVC_TEST_REDIS_URL;
}
