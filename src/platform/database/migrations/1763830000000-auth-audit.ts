import { MigrationInterface, QueryRunner } from 'typeorm';

/** Authentication events for operators; no API route reads this table. */
export class AuthAudit1763830000000 implements MigrationInterface {
  name = 'AuthAudit1763830000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE auth_audit (
        id          bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        occurred_at timestamptz NOT NULL,
        kind        text        NOT NULL,
        -- 'log': rebuilt from events by the auth-audit projection; 'request': written at the edge (failed attempts)
        source      text        NOT NULL,
        user_id     uuid,
        token_id    uuid,
        event_id    uuid        UNIQUE,
        detail      jsonb       NOT NULL DEFAULT '{}'
      )`);
    await db.query('CREATE INDEX auth_audit_time_idx ON auth_audit (occurred_at)');
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE auth_audit');
  }
}
