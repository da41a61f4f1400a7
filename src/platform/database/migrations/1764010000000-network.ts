import { MigrationInterface, QueryRunner } from 'typeorm';

/** The agent network's read models: calls (stats), probes (health), sessions and their messages. */
export class Network1764010000000 implements MigrationInterface {
  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE service_calls (
        id          uuid PRIMARY KEY,
        listing_id  uuid        NOT NULL,
        caller_id   uuid        NOT NULL,
        tool        text        NOT NULL,
        cost_cents  bigint      NOT NULL,
        outcome     text        NOT NULL,
        duration_ms integer     NOT NULL,
        called_at   timestamptz NOT NULL
      )`);
    await db.query('CREATE INDEX service_calls_by_listing ON service_calls (listing_id)');
    await db.query(`
      CREATE TABLE service_stats (
        listing_id        uuid PRIMARY KEY,
        total_calls       bigint NOT NULL DEFAULT 0,
        successes         bigint NOT NULL DEFAULT 0,
        total_duration_ms bigint NOT NULL DEFAULT 0,
        last_called_at    timestamptz
      )`);
    await db.query(`
      CREATE TABLE service_probes (
        id          uuid PRIMARY KEY,
        listing_id  uuid        NOT NULL,
        ok          boolean     NOT NULL,
        response_ms integer     NOT NULL,
        tool_names  text[]      NOT NULL DEFAULT '{}',
        error       text,
        checked_at  timestamptz NOT NULL
      )`);
    await db.query('CREATE INDEX service_probes_by_listing ON service_probes (listing_id, checked_at DESC)');
    await db.query(`
      CREATE TABLE network_sessions (
        id           uuid PRIMARY KEY,
        buyer_id     uuid        NOT NULL,
        vendor_id    uuid        NOT NULL,
        listing_id   uuid        NOT NULL,
        vendor_slug  text        NOT NULL,
        listing_slug text        NOT NULL,
        protocol     text,
        transport    text,
        status       text        NOT NULL,
        created_at   timestamptz NOT NULL,
        closed_at    timestamptz
      )`);
    await db.query('CREATE INDEX network_sessions_inbox ON network_sessions (vendor_id, status, created_at DESC)');
    await db.query(`
      CREATE TABLE network_messages (
        id              uuid PRIMARY KEY,
        session_id      uuid        NOT NULL,
        seq             bigint      NOT NULL,
        direction       text        NOT NULL,
        message_type    text        NOT NULL,
        correlation_id  text,
        payload         jsonb       NOT NULL,
        delivery_status text        NOT NULL,
        created_at      timestamptz NOT NULL,
        UNIQUE (session_id, seq)
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE network_messages, network_sessions, service_probes, service_stats, service_calls');
  }
}
