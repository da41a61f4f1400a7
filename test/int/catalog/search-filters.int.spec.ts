import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { DataSource, QueryRunner } from 'typeorm';
import { RecordedEvent } from '../../../src/event-store/event-store';
import { LogPosition } from '../../../src/event-store/log-position';
import { SearchCriteria } from '../../../src/modules/catalog/queries/search-listings/search-listings.query';
import {
  parseTags,
  searchFilters,
  SqlParams,
} from '../../../src/modules/catalog/queries/search-listings/search-listings.handler';
import { NetworkEvents } from '../../../src/modules/network/events';
import { NetworkProjection } from '../../../src/modules/network/read-models/network.projection';
import { ServiceSearchIndexes1764080000000 } from '../../../src/platform/database/migrations/1764080000000-service-search-indexes';
import { createTestDatabase, openDataSource, openPool, TestDatabase } from '../../support/database';

const LISTINGS = 8_000;
const LIVE = 6;

/**
 * Each filter of search is answered through an index: at 100,000 listings a filter that scans the catalogue costs
 * 40-300 ms a page, whatever the page. Live services are a small part of the catalogue here, as they are in life.
 */
describe('search filters', () => {
  let database: TestDatabase;
  let pool: Pool;
  let dataSource: DataSource;
  const live: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = openPool(database.url, 2);
    dataSource = await openDataSource(database.url);
    await pool.query(
      `INSERT INTO catalog_vendors (vendor_id, slug, display_name, domain_verified) VALUES (gen_random_uuid(), 'acme', 'Acme Labs', true)`,
    );
    await pool.query(`
      INSERT INTO listings (id, vendor_id, slug, type, title, description, tags, targets, tools, price_cents, status,
        latest_version, latest_release_id, created_at, updated_at, vendor_name, first_published_at, install_count,
        settlement_methods, service_endpoint, service_protocol, service_transport)
      SELECT gen_random_uuid(), (SELECT vendor_id FROM catalog_vendors), 'pkg-' || i,
        (ARRAY['skill', 'rule', 'bundle', 'template', 'mcp'])[1 + i % 5], 'Package ' || i, 'Does one thing well',
        ARRAY['tag-' || i % 40], ARRAY['cursor', 'codex'], CASE WHEN i = 7 THEN ARRAY['declared_tool'] ELSE '{}' END,
        (i % 50) * 100, 'published', '1.0.0', gen_random_uuid(), now(), now(), 'Acme Labs', now(), i % 997, ARRAY['wallet'],
        CASE WHEN i <= ${LIVE} THEN 'https://service-' || i || '.example.com/mcp' END,
        CASE WHEN i <= ${LIVE} THEN 'mcp' END, CASE WHEN i <= ${LIVE} THEN 'http' END
      FROM generate_series(1, ${LISTINGS}) i`);
    live.push(
      ...(await pool.query(`SELECT id FROM listings WHERE service_endpoint IS NOT NULL ORDER BY slug`)).rows.map((r) => r.id),
    );
    const projection = new NetworkProjection();
    for (const [i, listingId] of live.entries())
      await projection.apply(
        probed(listingId, 'ok', i < 3 ? ['forecast', 'geocode'] : ['translate'], '2026-11-20T10:00:00Z'),
        dataSource.manager,
      );
    await pool.query('VACUUM ANALYZE listings');
    await pool.query('ANALYZE service_tools');
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await pool?.end();
    await database?.drop();
  });

  /**
   * The plan of a statement the way search sends it (filter values as parameters), custom or generic (named
   * statements switch to the generic plan after five runs), and the heap's size.
   */
  const planOf = async (statement: (where: string) => string, criteria: SearchCriteria, mode: PlanMode) => {
    const sql = new SqlParams();
    const where = ['l.searchable', ...searchFilters(criteria, parseTags(criteria.tags), sql)].join(' AND ');
    const client = await pool.connect();
    try {
      await client.query(`SET plan_cache_mode = ${mode}`);
      await client.query(`PREPARE filtered AS ${statement(where)}`);
      // The cases' filter values are all text.
      const args = sql.values.map((v) => client.escapeLiteral(String(v))).join(', ');
      const execute = sql.values.length > 0 ? `filtered(${args})` : 'filtered';
      const [
        {
          'QUERY PLAN': [plan],
        },
      ] = (await client.query(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) EXECUTE ${execute}`)).rows;
      const [{ pages }] = (await client.query(`SELECT relpages AS pages FROM pg_class WHERE relname = 'listings'`)).rows;
      const scans: string[] = [];
      const walk = (node: Record<string, unknown>) => {
        if (node['Node Type'] === 'Seq Scan') scans.push(node['Relation Name'] as string);
        for (const child of (node.Plans as Record<string, unknown>[] | undefined) ?? []) walk(child);
      };
      walk(plan.Plan);
      return {
        sequentialScans: scans,
        buffers: plan.Plan['Shared Hit Blocks'] + plan.Plan['Shared Read Blocks'],
        heap: pages as number,
      };
    } finally {
      await client.query('DEALLOCATE ALL; RESET plan_cache_mode').catch(() => undefined);
      client.release();
    }
  };
  const page = (where: string) => `SELECT l.id FROM listings l WHERE ${where} ORDER BY l.price_cents, l.id LIMIT 21`;
  const popularPage = (where: string) =>
    `SELECT l.id FROM listings l WHERE ${where} ORDER BY l.install_count DESC, l.id DESC LIMIT 21 OFFSET 20`;
  const count = (where: string) =>
    `WITH matches AS MATERIALIZED (SELECT 1 FROM listings l WHERE ${where}) SELECT count(*) FROM (SELECT 1 FROM matches LIMIT 1001) m`;

  it.each<[string, SearchCriteria]>([
    ['a tool a live service lists', { tool: 'forecast' }],
    ['a tool a package declares', { tool: 'declared_tool' }],
    ['live services', { live: true }],
    ['a service protocol', { protocol: 'mcp' }],
    ['live services with a tool and a protocol', { live: true, tool: 'translate', protocol: 'mcp' }],
  ])('%s: read through indexes, never a scan of the catalogue', async (_, criteria) => {
    for (const statement of [page, popularPage, count])
      for (const mode of ['force_custom_plan', 'force_generic_plan'] as const) {
        const { sequentialScans, buffers, heap } = await planOf(statement, criteria, mode);
        expect(sequentialScans).not.toContain('listings');
        expect(buffers).toBeLessThan(heap / 5);
      }
  });

  it('finds a listing by the tools its live service listed at its latest successful probe', async () => {
    const matches = async (tool: string) => {
      const sql = new SqlParams();
      const where = ['l.searchable', ...searchFilters({ tool }, [], sql)].join(' AND ');
      return (await pool.query(`SELECT l.id FROM listings l WHERE ${where}`, sql.values)).rows.map((r) => r.id).sort();
    };
    expect(await matches('forecast')).toEqual(live.slice(0, 3).sort());
    expect(await matches('declared_tool')).toHaveLength(1);

    const projection = new NetworkProjection();
    const [service] = live;
    // A later successful probe replaces the tools; a failed one, or an older one applied late, changes nothing.
    await projection.apply(probed(service, 'ok', ['geocode'], '2026-11-21T10:00:00Z'), dataSource.manager);
    await projection.apply(probed(service, 'error', [], '2026-11-22T10:00:00Z'), dataSource.manager);
    await projection.apply(probed(service, 'ok', ['forecast'], '2026-11-20T12:00:00Z'), dataSource.manager);
    expect(await matches('forecast')).toEqual(live.slice(1, 3).sort());
    expect(await matches('geocode')).toContain(service);

    // Without its endpoint the listing is no longer a live service, whatever it listed.
    await pool.query(`UPDATE listings SET service_endpoint = NULL WHERE id = $1`, [live[1]]);
    expect(await matches('forecast')).toEqual([live[2]]);
  });

  it('fills service_tools from the probes recorded before it', async () => {
    const kept = 'SELECT listing_id, tool_names, checked_at FROM service_tools ORDER BY listing_id';
    const before = (await pool.query(kept)).rows;
    expect(before).toHaveLength(LIVE);
    const migration = new ServiceSearchIndexes1764080000000();
    const db = { query: (text: string) => pool.query(text).then((r) => r.rows) } as unknown as QueryRunner;
    await migration.down(db);
    await migration.up(db);
    expect((await pool.query(kept)).rows).toEqual(before);
  });
});

type PlanMode = 'force_custom_plan' | 'force_generic_plan';

function probed(listingId: string, status: 'ok' | 'error', toolNames: string[], checkedAt: string): RecordedEvent {
  return {
    eventId: randomUUID(),
    type: NetworkEvents.ServiceProbed,
    streamId: `service-probes-${listingId}`,
    revision: 0,
    position: LogPosition.START,
    data: {
      listingId,
      status,
      responseMs: 12,
      toolsCount: toolNames.length,
      toolNames,
      error: status === 'ok' ? null : 'refused',
      checkedAt,
    },
    metadata: {},
  } as unknown as RecordedEvent;
}
