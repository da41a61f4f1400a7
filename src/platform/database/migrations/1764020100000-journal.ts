import { MigrationInterface, QueryRunner } from 'typeorm';

/** The double-entry journal (a projection): signed lines, debit positive, each entry summing to zero. */
export class Journal1764020100000 implements MigrationInterface {
  name = 'Journal1764020100000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE journal_lines (
        event_id     uuid        NOT NULL,
        line         integer     NOT NULL,
        stream_id    text        NOT NULL,
        revision     bigint      NOT NULL,
        event_type   text        NOT NULL,
        account      text        NOT NULL,
        amount_cents bigint      NOT NULL,
        occurred_at  timestamptz NOT NULL,
        PRIMARY KEY (event_id, line)
      )`);
    await db.query('CREATE INDEX journal_lines_by_account ON journal_lines (account, occurred_at)');
    await db.query(`
      CREATE TABLE journal_card_orders (
        order_id text  PRIMARY KEY,
        data     jsonb NOT NULL
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE journal_card_orders');
    await db.query('DROP TABLE journal_lines');
  }
}
