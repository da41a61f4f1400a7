import { MigrationInterface, QueryRunner } from 'typeorm';

/** Read models of the wallet module: each wallet's balance and settings, and its transactions. */
export class Wallets1763900000000 implements MigrationInterface {
  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE wallets (
        owner_kind text NOT NULL,
        owner_id text NOT NULL,
        balance_cents bigint NOT NULL DEFAULT 0,
        auto_top_up_enabled boolean NOT NULL DEFAULT false,
        auto_top_up_threshold_cents bigint NOT NULL,
        auto_top_up_amount_cents bigint NOT NULL,
        updated_at timestamptz NOT NULL,
        PRIMARY KEY (owner_kind, owner_id)
      )`);
    await db.query(`
      CREATE TABLE wallet_transactions (
        id uuid PRIMARY KEY,
        owner_kind text NOT NULL,
        owner_id text NOT NULL,
        revision bigint NOT NULL,
        type text NOT NULL,
        amount_cents bigint NOT NULL,
        balance_after_cents bigint NOT NULL,
        description text NOT NULL,
        created_at timestamptz NOT NULL
      )`);
    await db.query(
      'CREATE UNIQUE INDEX wallet_transactions_by_wallet ON wallet_transactions (owner_kind, owner_id, revision DESC)',
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE wallet_transactions');
    await db.query('DROP TABLE wallets');
  }
}
