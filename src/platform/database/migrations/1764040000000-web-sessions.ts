import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Web sessions, kept server-side: the browser holds only an opaque id, stored here as its SHA-256.
 * The API token a session acts with is sealed with a key derived from that id, so this table alone
 * yields neither a session nor a token.
 */
export class WebSessions1764040000000 implements MigrationInterface {
  name = 'WebSessions1764040000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE web_sessions (
        id_hash      text        PRIMARY KEY,
        user_id      uuid        NOT NULL,
        token_id     uuid        NOT NULL,
        sealed_token text        NOT NULL,
        provider     text        NOT NULL,
        created_at   timestamptz NOT NULL,
        last_seen_at timestamptz NOT NULL
      )`);
    await db.query('CREATE INDEX web_sessions_user_idx ON web_sessions (user_id)');
    // A sign-in under way: what the callback must present (state) and check (nonce, PKCE verifier).
    await db.query(`
      CREATE TABLE web_sign_ins (
        state_hash    text        PRIMARY KEY,
        provider      text        NOT NULL,
        nonce         text        NOT NULL,
        code_verifier text        NOT NULL,
        return_to     text        NOT NULL,
        created_at    timestamptz NOT NULL
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE web_sign_ins');
    await db.query('DROP TABLE web_sessions');
  }
}
