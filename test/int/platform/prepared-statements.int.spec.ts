import { Pool } from 'pg';
import { PreparedStatements } from '../../../src/platform/database/prepared-statements';
import { createTestDatabase, openPool, TestDatabase } from '../../support/database';

describe('PreparedStatements', () => {
  let database: TestDatabase;
  let pool: Pool;

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = openPool(database.url, 1);
  });
  afterAll(async () => {
    await pool?.end();
    await database?.drop();
  });

  const preparedOnTheConnection = async () =>
    (await pool.query<{ statement: string }>('SELECT statement FROM pg_prepared_statements ORDER BY prepare_time')).rows.map(
      (r) => r.statement,
    );

  it('prepares each text once per connection, up to its limit; past it, texts run unnamed', async () => {
    const statements = new PreparedStatements(pool, 'test', 2);
    for (let i = 0; i < 3; i++) {
      expect(await statements.query('SELECT $1::int + 1 AS n', [i])).toEqual([{ n: i + 1 }]);
      expect(await statements.query('SELECT $1::text AS s', [`x${i}`])).toEqual([{ s: `x${i}` }]);
      expect(await statements.query('SELECT $1::int * 2 AS n', [i])).toEqual([{ n: i * 2 }]);
    }
    expect(await preparedOnTheConnection()).toEqual(['SELECT $1::int + 1 AS n', 'SELECT $1::text AS s']);
  });
});
