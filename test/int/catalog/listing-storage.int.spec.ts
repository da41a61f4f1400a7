import { Pool } from 'pg';
import { QueryRunner } from 'typeorm';
import { ListingColumnsInline1764070000000 } from '../../../src/platform/database/migrations/1764070000000-listing-columns-inline';
import { createTestDatabase, openPool, TestDatabase } from '../../support/database';

/** Filters read the small listing columns from the row itself; only the README and the search document live in TOAST. */
describe('listing storage', () => {
  let database: TestDatabase;
  let pool: Pool;

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = openPool(database.url, 1);
    await pool.query(
      `INSERT INTO catalog_vendors (vendor_id, slug, display_name, domain_verified) VALUES (gen_random_uuid(), 'acme', 'Acme Tools Labs', false)`,
    );
    await pool.query(`
      INSERT INTO listings (id, vendor_id, slug, type, title, description, tags, targets, tools, price_cents, readme_md, status,
        latest_version, latest_release_id, created_at, updated_at, vendor_name, first_published_at, settlement_methods)
      SELECT gen_random_uuid(), (SELECT vendor_id FROM catalog_vendors), 'pkg-' || i, 'skill', 'Invoice Parser Toolkit ' || i,
        'Extracts invoice tables from scanned documents and receipts into tidy spreadsheet rows',
        ARRAY['invoice', 'parse', 'spreadsheet'], ARRAY['cursor', 'codex'], ARRAY['extract_table'], 500,
        repeat('Install the package, configure the output folder and run the command on each file. ', 40),
        'published', '1.0.0', gen_random_uuid(), now(), now(), 'Acme Tools Labs', now(), ARRAY['wallet']
      FROM generate_series(1, 200) i`);
    await pool.query('VACUUM ANALYZE listings');
  });
  afterAll(async () => {
    await pool?.end();
    await database?.drop();
  });

  /** Blocks a sequential scan with this filter touched, beside the heap's own. */
  const scanBlocks = async (filter: string) => {
    const client = await pool.connect();
    try {
      await client.query('SET enable_bitmapscan = off; SET enable_indexscan = off; SET max_parallel_workers_per_gather = 0');
      const [
        {
          'QUERY PLAN': [plan],
        },
      ] = (await client.query(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) SELECT count(*) FROM listings l WHERE ${filter}`)).rows;
      const scan = plan.Plan.Plans[0];
      const [{ pages }] = (await client.query(`SELECT relpages AS pages FROM pg_class WHERE relname = 'listings'`)).rows;
      return { touched: scan['Shared Hit Blocks'] + scan['Shared Read Blocks'], heap: pages as number };
    } finally {
      client.release();
    }
  };

  it.each([
    ["l.tags @> ARRAY['nothing']"],
    ["l.targets @> ARRAY['nothing']"],
    ["l.tools @> ARRAY['nothing']"],
    ["l.settlement_methods @> ARRAY['nothing']"],
    ["l.description LIKE '%nothing%' OR l.title LIKE '%nothing%' OR l.vendor_name LIKE '%nothing%' OR l.slug LIKE '%nothing%'"],
  ])('a filter on %s reads the heap and nothing else', async (filter) => {
    const { touched, heap } = await scanBlocks(filter);
    expect(touched).toBe(heap);
  });

  it('keeps the README and the search document out of line', async () => {
    const { touched, heap } = await scanBlocks("l.readme_md LIKE '%nothing%'");
    expect(touched).toBeGreaterThan(heap);
  });

  it('moves the values of rows written before it back into the row, and changes nothing else', async () => {
    const migration = new ListingColumnsInline1764070000000();
    const db = { query: (sql: string) => pool.query(sql).then((r) => r.rows) } as unknown as QueryRunner;
    await migration.down(db);
    // Written anew under the old storage, as before the migration.
    await pool.query("UPDATE listings SET tags = tags || '{}'::text[], description = description || ''");
    await pool.query('VACUUM listings');
    expect((await scanBlocks("l.tags @> ARRAY['nothing']")).touched).toBeGreaterThan((await scanBlocks('true')).heap);
    // The catalogue's mean rating moved since the rows were last written: a write through the trigger would move them.
    await pool.query('UPDATE catalog_state SET rating_sum = 45, rating_count = 10 WHERE id = 1');
    const derived = `SELECT id, search_seq, rating_bayes, trust_score, search_vector::text FROM listings ORDER BY id`;
    const before = (await pool.query(derived)).rows;
    const history = 'SELECT count(*)::int AS n FROM listing_search_history';
    const historyBefore = (await pool.query(history)).rows[0].n;

    await migration.up(db);
    await pool.query('VACUUM listings');
    const { touched, heap } = await scanBlocks("l.tags @> ARRAY['nothing'] OR l.description LIKE '%nothing%'");
    expect(touched).toBe(heap);
    expect((await pool.query(derived)).rows).toEqual(before);
    expect((await pool.query(history)).rows[0].n).toBe(historyBefore);
    const triggers = await pool.query(
      "SELECT count(*)::int AS n FROM pg_trigger WHERE tgrelid = 'listings'::regclass AND NOT tgisinternal AND tgenabled = 'D'",
    );
    expect(triggers.rows[0].n).toBe(0);
  });
});
