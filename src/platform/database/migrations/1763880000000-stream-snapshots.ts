import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The latest snapshot of a stream's folded state, so a decision reads only the
 * events after it. A cache beside the log, never the book of record: any row
 * may be dropped (it only costs a full fold), whichever store holds the log.
 */
export class StreamSnapshots1763880000000 implements MigrationInterface {
  name = 'StreamSnapshots1763880000000';

  async up(db: QueryRunner): Promise<void> {
    // event_id is the id of the event at `revision`: a snapshot whose event the log no longer has there is ignored.
    await db.query(`
      CREATE TABLE stream_snapshots (
        stream_id      text        PRIMARY KEY,
        revision       bigint      NOT NULL,
        event_id       uuid        NOT NULL,
        schema_version integer     NOT NULL,
        state          jsonb       NOT NULL,
        taken_at       timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE stream_snapshots');
  }
}
