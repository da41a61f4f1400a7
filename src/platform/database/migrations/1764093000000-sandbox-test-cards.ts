import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The sandbox plays the processor's test cards: each saved card and each
 * intent a customer confirmed keeps the test card's number (null: a row from
 * before, paid or saved with the 4242 Visa), and a declined intent keeps the
 * processor's codes as well as its message.
 */
export class SandboxTestCards1764093000000 implements MigrationInterface {
  async up(db: QueryRunner): Promise<void> {
    await db.query('ALTER TABLE sandbox_payment_methods ADD COLUMN card_number text');
    await db.query(`
      ALTER TABLE sandbox_payment_intents
        ADD COLUMN card_number text,
        ADD COLUMN failure_code text,
        ADD COLUMN decline_code text`);
    await db.query(`
      ALTER TABLE sandbox_setup_intents
        ADD COLUMN card_number text,
        ADD COLUMN failure_message text,
        ADD COLUMN failure_code text,
        ADD COLUMN decline_code text`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(
      'ALTER TABLE sandbox_setup_intents DROP COLUMN card_number, DROP COLUMN failure_message, DROP COLUMN failure_code, DROP COLUMN decline_code',
    );
    await db.query(
      'ALTER TABLE sandbox_payment_intents DROP COLUMN card_number, DROP COLUMN failure_code, DROP COLUMN decline_code',
    );
    await db.query('ALTER TABLE sandbox_payment_methods DROP COLUMN card_number');
  }
}
