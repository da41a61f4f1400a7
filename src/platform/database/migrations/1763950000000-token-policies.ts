import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The auth module's own copy of spend policy names, built from the policies
 * module's events, so the token list shows `policyName` without reading
 * another module's tables. A deleted policy's row is removed.
 */
export class TokenPolicies1763950000000 implements MigrationInterface {
  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE token_policies (
        policy_id uuid PRIMARY KEY,
        name text NOT NULL
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE token_policies');
  }
}
