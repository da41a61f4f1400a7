import { MigrationInterface, QueryRunner } from 'typeorm';

export class EventStore1763770000000 implements MigrationInterface {
  name = 'EventStore1763770000000';

  async up(db: QueryRunner): Promise<void> {
    // The log. (transaction_id, position) is the global order readers follow.
    await db.query(`
      CREATE TABLE events (
        position       bigint GENERATED ALWAYS AS IDENTITY,
        transaction_id xid8   NOT NULL DEFAULT pg_current_xact_id(),
        event_id       uuid   NOT NULL,
        stream_id      text   NOT NULL,
        revision       bigint NOT NULL,
        type           text   NOT NULL,
        data           jsonb  NOT NULL,
        metadata       jsonb  NOT NULL,
        CONSTRAINT events_pkey PRIMARY KEY (transaction_id, position),
        CONSTRAINT events_event_id_key UNIQUE (event_id),
        CONSTRAINT events_stream_revision_key UNIQUE (stream_id, revision)
      )`);
    // History is never rewritten: only crypto-shredding forgets personal data.
    await db.query(`
      CREATE FUNCTION events_are_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'the event log is append-only';
      END $$`);
    await db.query(`
      CREATE TRIGGER events_append_only BEFORE UPDATE OR DELETE ON events
        FOR EACH ROW EXECUTE FUNCTION events_are_append_only()`);

    // Per-subject data keys for personal data inside events; deleting a key shreds the data.
    await db.query(`
      CREATE TABLE personal_data_keys (
        subject_id   text        PRIMARY KEY,
        key          bytea,
        created_at   timestamptz NOT NULL DEFAULT now(),
        destroyed_at timestamptz
      )`);

    // Where each projection or process manager is in the log.
    await db.query(`
      CREATE TABLE processor_checkpoints (
        name               text        PRIMARY KEY,
        commit_position    numeric(20) NOT NULL DEFAULT 0,
        prepare_position   bigint      NOT NULL DEFAULT 0,
        rebuild_requested  boolean     NOT NULL DEFAULT false,
        updated_at         timestamptz NOT NULL DEFAULT now()
      )`);
    // Events a processor gave up on after retries, kept for an operator to replay.
    await db.query(`
      CREATE TABLE processor_dead_letters (
        processor    text        NOT NULL,
        event_id     uuid        NOT NULL,
        event_type   text        NOT NULL,
        error        text        NOT NULL,
        attempts     integer     NOT NULL,
        failed_at    timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (processor, event_id)
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE processor_dead_letters');
    await db.query('DROP TABLE processor_checkpoints');
    await db.query('DROP TABLE personal_data_keys');
    await db.query('DROP TABLE events');
    await db.query('DROP FUNCTION events_are_append_only');
  }
}
