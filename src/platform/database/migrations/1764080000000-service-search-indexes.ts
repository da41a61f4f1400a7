import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Search's service filters, each answered through an index instead of a scan
 * of the whole catalogue (at 100,000 listings a `tool` filter took 300 ms and
 * `live` or `protocol` 45 ms, whatever the page):
 * - `service_tools`: the tools each live service listed at its latest
 *   successful probe (the network projection keeps it), indexed by tool, so a
 *   tool filter is the union of two index reads rather than a probe lookup for
 *   every listing;
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
    await db.query(`
      INSERT INTO service_tools (listing_id, tool_names, checked_at)
      SELECT DISTINCT ON (listing_id) listing_id, tool_names, checked_at FROM service_probes
      WHERE ok ORDER BY listing_id, checked_at DESC`);
    await db.query('CREATE INDEX service_tools_by_tool ON service_tools USING gin (tool_names)');
    await db.query(
      'CREATE INDEX listings_live ON listings (install_count DESC, id DESC) WHERE searchable AND service_endpoint IS NOT NULL',
    );
    await db.query(
      'CREATE INDEX listings_by_protocol ON listings (service_protocol) WHERE searchable AND service_protocol IS NOT NULL',
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP INDEX listings_by_protocol');
    await db.query('DROP INDEX listings_live');
    await db.query('DROP TABLE service_tools');
  }
}
