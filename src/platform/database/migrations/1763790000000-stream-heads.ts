import { MigrationInterface, QueryRunner } from 'typeorm';

/** One row per stream holding its last revision: appends move it under a row lock. */
export class StreamHeads1763790000000 implements MigrationInterface {
  name = 'StreamHeads1763790000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE streams (
        stream_id text   PRIMARY KEY,
        revision  bigint NOT NULL
      )`);
    await db.query('INSERT INTO streams (stream_id, revision) SELECT stream_id, max(revision) FROM events GROUP BY stream_id');
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE streams');
  }
}
