import { MigrationInterface, QueryRunner } from 'typeorm';

/** Read model of the policies module: each live spend policy (a deleted one is removed). */
export class SpendPolicies1763940000000 implements MigrationInterface {
  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE spend_policies (
        id uuid PRIMARY KEY,
        -- Log order of creation: ties of created_at (same millisecond) still list newest first.
        seq bigint GENERATED ALWAYS AS IDENTITY,
        owner_kind text NOT NULL,
        owner_id text NOT NULL,
        name text NOT NULL,
        max_per_purchase_cents bigint,
        daily_limit_cents bigint,
        monthly_limit_cents bigint,
        require_approval_above_cents bigint,
        vendor_allowlist text[] NOT NULL,
        blocked_types text[] NOT NULL,
        active boolean NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    await db.query('CREATE INDEX spend_policies_by_owner ON spend_policies (owner_kind, owner_id, created_at DESC, seq DESC)');
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE spend_policies');
  }
}
