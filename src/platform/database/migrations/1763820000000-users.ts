import { MigrationInterface, QueryRunner } from 'typeorm';

/** The users read model. Personal fields are null once an account is deleted. */
export class Users1763820000000 implements MigrationInterface {
  name = 'Users1763820000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE users (
        id             uuid        PRIMARY KEY,
        email          text,
        name           text,
        avatar_url     text,
        email_verified boolean     NOT NULL DEFAULT false,
        created_at     timestamptz NOT NULL,
        deleted_at     timestamptz
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE users');
  }
}
