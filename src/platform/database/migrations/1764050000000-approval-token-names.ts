import { MigrationInterface, QueryRunner } from 'typeorm';

/** Approvals show the name of the token that asked; older ones have none. */
export class ApprovalTokenNames1764050000000 implements MigrationInterface {
  async up(db: QueryRunner): Promise<void> {
    await db.query('ALTER TABLE purchase_approvals ADD COLUMN token_name text');
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('ALTER TABLE purchase_approvals DROP COLUMN token_name');
  }
}
