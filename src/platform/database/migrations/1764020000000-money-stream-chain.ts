import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Tamper evidence for money streams: each event of a wallet, top-up, order,
 * entitlement, approval or unmatched-payment stream gets a link,
 * sha256(previous link | event id | stream | revision | type | data | metadata),
 * computed by an insert trigger in the appending transaction. `ledger verify`
 * recomputes the chain from the events; an edited, deleted or inserted event
 * breaks it at that stream and revision.
 */
export class MoneyStreamChain1764020000000 implements MigrationInterface {
  name = 'MoneyStreamChain1764020000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE FUNCTION is_money_stream(stream_id text) RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
        SELECT stream_id ~ '^(wallet|top-up|order|entitlement|approval|unmatched-payment)-'
      $$`);
    await db.query(`
      CREATE FUNCTION money_chain_link(previous text, e events) RETURNS text LANGUAGE sql IMMUTABLE AS $$
        SELECT encode(sha256(convert_to(concat_ws('|', previous, e.event_id::text, e.stream_id, e.revision::text, e.type,
                                                  e.data::text, e.metadata::text), 'UTF8')), 'hex')
      $$`);
    await db.query(`
      CREATE TABLE money_stream_chain (
        stream_id text   NOT NULL,
        revision  bigint NOT NULL,
        event_id  uuid   NOT NULL,
        link      text   NOT NULL,
        PRIMARY KEY (stream_id, revision)
      )`);
    // An AFTER row trigger sees the links earlier rows of the same multi-row insert made.
    await db.query(`
      CREATE FUNCTION money_chain_append() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE previous text;
      BEGIN
        IF is_money_stream(NEW.stream_id) THEN
          SELECT link INTO previous FROM money_stream_chain WHERE stream_id = NEW.stream_id AND revision = NEW.revision - 1;
          INSERT INTO money_stream_chain (stream_id, revision, event_id, link)
            VALUES (NEW.stream_id, NEW.revision, NEW.event_id, money_chain_link(coalesce(previous, ''), NEW));
        END IF;
        RETURN NULL;
      END $$`);
    await db.query(`
      CREATE TRIGGER events_money_chain AFTER INSERT ON events
        FOR EACH ROW EXECUTE FUNCTION money_chain_append()`);
    await db.query(`
      CREATE TRIGGER money_stream_chain_append_only BEFORE UPDATE OR DELETE ON money_stream_chain
        FOR EACH ROW EXECUTE FUNCTION events_are_append_only()`);
    // Money events stored before this migration get their links now, in stream order.
    await db.query(`
      DO $$
      DECLARE e events; previous text; current_stream text := NULL;
      BEGIN
        FOR e IN SELECT * FROM events WHERE is_money_stream(stream_id) ORDER BY stream_id, revision LOOP
          IF current_stream IS DISTINCT FROM e.stream_id THEN previous := ''; current_stream := e.stream_id; END IF;
          previous := money_chain_link(previous, e);
          INSERT INTO money_stream_chain VALUES (e.stream_id, e.revision, e.event_id, previous);
        END LOOP;
      END $$`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TRIGGER events_money_chain ON events');
    await db.query('DROP TABLE money_stream_chain');
    await db.query('DROP FUNCTION money_chain_append');
    await db.query('DROP FUNCTION money_chain_link');
    await db.query('DROP FUNCTION is_money_stream');
  }
}
