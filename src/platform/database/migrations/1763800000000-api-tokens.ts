import { MigrationInterface, QueryRunner } from 'typeorm';

/** The API tokens read model: looked up by hash on every authenticated request. */
export class ApiTokens1763800000000 implements MigrationInterface {
  name = 'ApiTokens1763800000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE api_tokens (
        id           uuid        PRIMARY KEY,
        user_id      uuid        NOT NULL,
        name         text        NOT NULL,
        scopes       text[]      NOT NULL,
        token_hash   text        NOT NULL UNIQUE,
        policy_id    uuid,
        created_at   timestamptz NOT NULL,
        expires_at   timestamptz,
        revoked_at   timestamptz,
        last_used_at timestamptz
      )`);
    await db.query('CREATE INDEX api_tokens_user_idx ON api_tokens (user_id, created_at DESC)');
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE api_tokens');
  }
}
