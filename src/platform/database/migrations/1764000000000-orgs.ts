import { MigrationInterface, QueryRunner } from 'typeorm';

/** Read models of the orgs module: live organizations, their members and their open invitations. */
export class Orgs1764000000000 implements MigrationInterface {
  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE orgs (
        id uuid PRIMARY KEY,
        slug text NOT NULL UNIQUE,
        name text NOT NULL,
        avatar_url text,
        created_at timestamptz NOT NULL
      )`);
    await db.query(`
      CREATE TABLE org_members (
        org_id uuid NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
        user_id uuid NOT NULL,
        role text NOT NULL,
        joined_at timestamptz NOT NULL,
        PRIMARY KEY (org_id, user_id)
      )`);
    await db.query('CREATE INDEX org_members_by_user ON org_members (user_id)');
    await db.query(`
      CREATE TABLE org_invitations (
        id uuid PRIMARY KEY,
        org_id uuid NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
        email text NOT NULL,
        role text NOT NULL,
        token_hash text NOT NULL UNIQUE,
        invited_by uuid NOT NULL,
        expires_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE org_invitations');
    await db.query('DROP TABLE org_members');
    await db.query('DROP TABLE orgs');
  }
}
