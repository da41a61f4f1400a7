import { MigrationInterface, QueryRunner } from 'typeorm';

/** Purchases spend policies sent to their owners for approval. */
export class Approvals1763960000000 implements MigrationInterface {
  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE purchase_approvals (
        id uuid PRIMARY KEY,
        owner_id uuid NOT NULL,
        requester_id uuid NOT NULL,
        policy_id uuid NOT NULL,
        status text NOT NULL,
        rule text NOT NULL,
        reason text NOT NULL,
        listing_id uuid NOT NULL,
        release_id uuid NOT NULL,
        price_cents bigint NOT NULL,
        use_wallet boolean NOT NULL,
        listing_title text NOT NULL,
        vendor_slug text NOT NULL,
        version text NOT NULL,
        order_id uuid,
        requested_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL
      )`);
    await db.query('CREATE INDEX purchase_approvals_by_owner ON purchase_approvals (owner_id, requested_at DESC)');
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE purchase_approvals');
  }
}
