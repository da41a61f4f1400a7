import { MigrationInterface, QueryRunner } from 'typeorm';

/** Where a dead letter's event lives, so an operator command can read it back and retry it. */
export class DeadLetterAddress1763870000000 implements MigrationInterface {
  async up(db: QueryRunner): Promise<void> {
    await db.query('ALTER TABLE processor_dead_letters ADD COLUMN stream_id text, ADD COLUMN revision bigint');
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('ALTER TABLE processor_dead_letters DROP COLUMN stream_id, DROP COLUMN revision');
  }
}
