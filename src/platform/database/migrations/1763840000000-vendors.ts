import { MigrationInterface, QueryRunner } from 'typeorm';

/** Vendor profiles with their verification, and signing keys with their log. */
export class Vendors1763840000000 implements MigrationInterface {
  name = 'Vendors1763840000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE vendors (
        id                 uuid        PRIMARY KEY,
        slug               text        NOT NULL,
        display_name       text        NOT NULL,
        bio                text,
        website            text,
        domain_host        text,
        domain_token       text,
        domain_verified    boolean     NOT NULL DEFAULT false,
        github_org         text,
        github_verified    boolean     NOT NULL DEFAULT false,
        created_at         timestamptz NOT NULL,
        updated_at         timestamptz NOT NULL
      )`);
    await db.query('CREATE UNIQUE INDEX vendors_slug ON vendors (slug)');
    await db.query(`CREATE INDEX vendors_verified ON vendors (id) WHERE domain_verified OR github_verified`);
    await db.query(`
      CREATE TABLE vendor_signing_keys (
        vendor_id   uuid        NOT NULL,
        fingerprint text        NOT NULL,
        public_key  text        NOT NULL,
        algorithm   text        NOT NULL,
        status      text        NOT NULL CHECK (status IN ('active', 'retired', 'revoked')),
        created_at  timestamptz NOT NULL,
        PRIMARY KEY (vendor_id, fingerprint)
      )`);
    await db.query(
      `CREATE UNIQUE INDEX vendor_signing_keys_one_active ON vendor_signing_keys (vendor_id) WHERE status = 'active'`,
    );
    await db.query(`
      CREATE TABLE vendor_signing_key_log (
        id          bigserial   PRIMARY KEY,
        vendor_id   uuid        NOT NULL,
        action      text        NOT NULL,
        fingerprint text        NOT NULL,
        created_at  timestamptz NOT NULL
      )`);
    await db.query('CREATE INDEX vendor_signing_key_log_vendor ON vendor_signing_key_log (vendor_id, id)');
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE vendor_signing_key_log');
    await db.query('DROP TABLE vendor_signing_keys');
    await db.query('DROP TABLE vendors');
  }
}
