import { MigrationInterface, QueryRunner } from 'typeorm';

/** The uploaded signature of a release, so clients can verify archives against the vendor's key themselves. */
export class ReleaseSignatures1764060000000 implements MigrationInterface {
  async up(db: QueryRunner): Promise<void> {
    await db.query('ALTER TABLE releases ADD COLUMN signature text');
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('ALTER TABLE releases DROP COLUMN signature');
  }
}
