import { MigrationInterface, QueryRunner } from 'typeorm';

/** The catalog read models: listings, their releases with scan results, and the vendor facts listings show. */
export class Catalog1763850000000 implements MigrationInterface {
  name = 'Catalog1763850000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE catalog_vendors (
        vendor_id       uuid    PRIMARY KEY,
        slug            text    NOT NULL,
        display_name    text    NOT NULL,
        domain_verified boolean NOT NULL DEFAULT false,
        github_verified boolean NOT NULL DEFAULT false,
        github_org      text
      )`);
    await db.query('CREATE INDEX catalog_vendors_slug ON catalog_vendors (slug)');
    await db.query(`
      CREATE TABLE listings (
        id                 uuid        PRIMARY KEY,
        vendor_id          uuid        NOT NULL,
        slug               text        NOT NULL,
        type               text        NOT NULL,
        title              text        NOT NULL,
        description        text        NOT NULL,
        tags               text[]      NOT NULL DEFAULT '{}',
        targets            text[]      NOT NULL DEFAULT '{}',
        tools              text[]      NOT NULL DEFAULT '{}',
        price_cents        bigint      NOT NULL CHECK (price_cents >= 0),
        currency           text        NOT NULL DEFAULT 'usd',
        readme_md          text,
        status             text        NOT NULL CHECK (status IN ('published', 'unlisted', 'draft')),
        latest_version     text,
        latest_release_id  uuid,
        service_endpoint   text,
        service_protocol   text,
        service_transport  text,
        pricing_model      text        NOT NULL DEFAULT 'one_time',
        per_call_cents     bigint,
        settlement_methods text[]      NOT NULL DEFAULT '{}',
        capabilities       jsonb,
        agent_card         jsonb,
        edited_fields      text[]      NOT NULL DEFAULT '{}',
        install_count      bigint      NOT NULL DEFAULT 0,
        rating             numeric(3,2) NOT NULL DEFAULT 0,
        rating_count       integer     NOT NULL DEFAULT 0,
        created_at         timestamptz NOT NULL,
        updated_at         timestamptz NOT NULL,
        UNIQUE (vendor_id, slug)
      )`);
    await db.query(`
      CREATE TABLE releases (
        id                uuid        PRIMARY KEY,
        listing_id        uuid        NOT NULL REFERENCES listings (id),
        vendor_id         uuid        NOT NULL,
        version           text        NOT NULL,
        archive_sha256    text        NOT NULL,
        size_bytes        bigint      NOT NULL,
        price_cents       bigint      NOT NULL,
        signed_with       text,
        content           jsonb       NOT NULL,
        readme_md         text,
        scan_status       text        NOT NULL DEFAULT 'pending',
        scan_label        text,
        quality_score     integer,
        scan_findings     jsonb,
        scan_checks       jsonb,
        prompt_guard      jsonb,
        scanned_at        timestamptz,
        publish_requested boolean     NOT NULL DEFAULT false,
        published_at      timestamptz,
        created_at        timestamptz NOT NULL
      )`);
    await db.query('CREATE INDEX releases_listing ON releases (listing_id, created_at DESC)');
    await db.query('CREATE INDEX releases_published ON releases (listing_id, published_at DESC) WHERE published_at IS NOT NULL');
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE releases');
    await db.query('DROP TABLE listings');
    await db.query('DROP TABLE catalog_vendors');
  }
}
