import { MigrationInterface, QueryRunner } from 'typeorm';

/** Read model of the billing module: each vendor's connected account at the processor and its onboarding state. */
export class ConnectedAccounts1763980000000 implements MigrationInterface {
  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE billing_connected_accounts (
        vendor_id text PRIMARY KEY,
        account_id text NOT NULL,
        charges_enabled boolean NOT NULL DEFAULT false,
        details_submitted boolean NOT NULL DEFAULT false,
        onboarding_complete boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE billing_connected_accounts');
  }
}
