import { MigrationInterface, QueryRunner } from 'typeorm';

/** Read models of the purchasing module: orders (with the fee split) and entitlements. */
export class Purchasing1763930000000 implements MigrationInterface {
  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE orders (
        id uuid PRIMARY KEY,
        buyer_kind text NOT NULL,
        buyer_id text NOT NULL,
        user_id uuid NOT NULL,
        listing_id uuid NOT NULL,
        release_id uuid NOT NULL,
        version text NOT NULL,
        vendor_id uuid NOT NULL,
        vendor_slug text NOT NULL,
        vendor_name text NOT NULL,
        listing_slug text NOT NULL,
        listing_title text NOT NULL,
        amount_cents bigint NOT NULL,
        platform_fee_cents bigint NOT NULL,
        vendor_net_cents bigint NOT NULL,
        status text NOT NULL,
        funding_source text NOT NULL,
        payment_intent_id text,
        channel text NOT NULL,
        created_at timestamptz NOT NULL
      )`);
    await db.query('CREATE INDEX orders_by_buyer ON orders (buyer_kind, buyer_id, created_at DESC)');
    await db.query('CREATE INDEX orders_by_payment_intent ON orders (payment_intent_id) WHERE payment_intent_id IS NOT NULL');
    await db.query('CREATE INDEX orders_by_vendor ON orders (vendor_id, created_at)');
    await db.query(`
      CREATE TABLE entitlements (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL,
        listing_id uuid NOT NULL,
        release_id uuid NOT NULL,
        order_id uuid NOT NULL,
        vendor_slug text NOT NULL,
        listing_slug text NOT NULL,
        listing_title text NOT NULL,
        version text NOT NULL,
        granted_at timestamptz NOT NULL,
        UNIQUE (user_id, listing_id)
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE entitlements');
    await db.query('DROP TABLE orders');
  }
}
