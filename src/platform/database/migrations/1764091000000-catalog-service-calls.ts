import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The trust score's service reliability becomes the catalog's own: `listing_service_calls`
 * counts each listing's settled calls (abandoned ones not counted) from the network's
 * `ServiceCalled` events, which the catalog projection now reads itself, and it sets
 * `listings.service_success_rate` from them. Before, the network projection wrote that
 * column, so a rebuild of the catalog lost it (the rate went to null, the trust score down).
 *
 * The counts start as of the catalog projection's checkpoint, counted from the log (the
 * PostgreSQL event store; one pass over it, at boot before serving): the projection goes on
 * from there, so no call is counted twice or missed. With the log in another store there is
 * nothing here to count; the catalog is then rebuilt from the log once, if any call was ever
 * settled. An instance of the previous version that keeps running the catalog projection after
 * this migration passes calls without counting them: after such a rolling deploy, rebuild the
 * catalog (`npm run projections -- rebuild catalog`).
 */
export class CatalogServiceCalls1764091000000 implements MigrationInterface {
  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE listing_service_calls (
        listing_id    uuid   PRIMARY KEY,
        settled_calls bigint NOT NULL,
        successes     bigint NOT NULL
      )`);
    await db.query(`
      INSERT INTO listing_service_calls (listing_id, settled_calls, successes)
      SELECT (e.data->>'listingId')::uuid, count(*), count(*) FILTER (WHERE e.data->>'outcome' = 'success')
        FROM events e JOIN processor_checkpoints c ON c.name = 'catalog'
       WHERE e.type = 'ServiceCalled' AND e.data->>'outcome' <> 'abandoned'
         AND (e.transaction_id, e.position) <= (c.commit_position::text::xid8, c.prepare_position)
       GROUP BY 1`);
    await db.query(`
      UPDATE listings l SET service_success_rate = r.rate
        FROM (SELECT x.id, s.successes::double precision / s.settled_calls AS rate
                FROM listings x LEFT JOIN listing_service_calls s ON s.listing_id = x.id) r
       WHERE r.id = l.id AND l.service_success_rate IS DISTINCT FROM r.rate`);
    await db.query(`
      UPDATE processor_checkpoints SET rebuild_requested = true
       WHERE name = 'catalog' AND NOT EXISTS (SELECT 1 FROM events) AND EXISTS (SELECT 1 FROM service_calls)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE listing_service_calls');
  }
}
