import { MigrationInterface, QueryRunner } from 'typeorm';

/** Pending device authorizations, found by user code when a signed-in user approves one. */
export class DeviceCodes1763810000000 implements MigrationInterface {
  name = 'DeviceCodes1763810000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE device_codes (
        device_code_hash text        PRIMARY KEY,
        user_code        text        NOT NULL,
        status           text        NOT NULL,
        expires_at       timestamptz NOT NULL
      )`);
    // A user code is unique among the codes still waiting for approval.
    await db.query(`CREATE UNIQUE INDEX device_codes_pending_user_code ON device_codes (user_code) WHERE status = 'pending'`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE device_codes');
  }
}
