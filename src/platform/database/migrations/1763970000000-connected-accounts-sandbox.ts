import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The sandbox gateway's connected accounts: what the processor would keep of
 * a vendor's payout account. Like its intents, an account is created once per
 * idempotency key, and its onboarding completes once: `event_id` and
 * `settled_at` are set by the first completion, so every redelivery of its
 * `account.updated` is the same event.
 */
export class ConnectedAccountsSandbox1763970000000 implements MigrationInterface {
  name = 'ConnectedAccountsSandbox1763970000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE sandbox_connected_accounts (
        id                text        PRIMARY KEY,
        vendor_id         text        NOT NULL,
        charges_enabled   boolean     NOT NULL DEFAULT false,
        details_submitted boolean     NOT NULL DEFAULT false,
        payouts_enabled   boolean     NOT NULL DEFAULT false,
        idempotency_key   text        NOT NULL UNIQUE,
        created_at        timestamptz NOT NULL,
        event_id          text        UNIQUE,
        settled_at        timestamptz
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE sandbox_connected_accounts');
  }
}
