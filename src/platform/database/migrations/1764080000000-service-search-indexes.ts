import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Search's service filters, each answered through an index instead of a scan
 * of the whole catalogue (at 100,000 listings a `tool` filter took 300 ms and
 * `live` or `protocol` 45 ms, whatever the page):
 * - `service_tools`: the tools each service listed at its latest successful
 *   probe, indexed by tool, so a tool filter is the union of two index reads
 *   rather than a probe lookup for every listing. A trigger on
 *   `service_probes` keeps it, so it is right from the migration's commit on,
 *   whichever instance (this version or the one before) records a probe;
 * - live listings, and listings by service protocol: partial indexes, small
 *   while live services are a minority of the catalogue.
 */
export class ServiceSearchIndexes1764080000000 implements MigrationInterface {
  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE service_tools (
        listing_id uuid        PRIMARY KEY,
        tool_names text[]      NOT NULL,
        checked_at timestamptz NOT NULL
      )`);
    // The newest successful probe wins; of two at the same instant, the one recorded last.
    await db.query(`
      CREATE FUNCTION service_tools_keep() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO service_tools (listing_id, tool_names, checked_at) VALUES (NEW.listing_id, NEW.tool_names, NEW.checked_at)
        ON CONFLICT (listing_id) DO UPDATE SET tool_names = EXCLUDED.tool_names, checked_at = EXCLUDED.checked_at
        WHERE service_tools.checked_at <= EXCLUDED.checked_at;
        RETURN NULL;
      END $$`);
    await db.query(`
      CREATE TRIGGER service_tools_on_probe AFTER INSERT ON service_probes
      FOR EACH ROW WHEN (NEW.ok) EXECUTE FUNCTION service_tools_keep()`);
    // One index lookup per listing (probes pile up over time; listings do not).
    await db.query(`
      INSERT INTO service_tools (listing_id, tool_names, checked_at)
      SELECT l.id, p.tool_names, p.checked_at FROM listings l
      CROSS JOIN LATERAL (
        SELECT tool_names, checked_at FROM service_probes WHERE listing_id = l.id AND ok ORDER BY checked_at DESC LIMIT 1
      ) p`);
    await db.query('CREATE INDEX service_tools_by_tool ON service_tools USING gin (tool_names)');
    await db.query(`
      CREATE INDEX listings_live_by_popular ON listings (install_count DESC, id DESC)
      WHERE searchable AND service_endpoint IS NOT NULL`);
    await db.query(
      'CREATE INDEX listings_by_protocol ON listings (service_protocol) WHERE searchable AND service_protocol IS NOT NULL',
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP INDEX listings_by_protocol');
    await db.query('DROP INDEX listings_live_by_popular');
    await db.query('DROP TRIGGER service_tools_on_probe ON service_probes');
    await db.query('DROP FUNCTION service_tools_keep');
    await db.query('DROP TABLE service_tools');
  }
}
