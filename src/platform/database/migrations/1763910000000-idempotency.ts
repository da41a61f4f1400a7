import { MigrationInterface, QueryRunner } from 'typeorm';

/** Idempotency keys whose first request is still executing (the answers themselves are in the log). */
export class Idempotency1763910000000 implements MigrationInterface {
  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE idempotency_in_flight (
        scope_key text PRIMARY KEY,
        token uuid NOT NULL,
        expires_at timestamptz NOT NULL
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE idempotency_in_flight');
  }
}
