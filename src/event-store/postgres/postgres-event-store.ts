import { randomUUID } from 'node:crypto';
import { Client, Pool, PoolClient, DatabaseError } from 'pg';
import {
  AppendResult,
  completeMetadata,
  DuplicateEventIdError,
  EventStore,
  ExpectedState,
  LogPosition,
  NewEvent,
  ReadAllOptions,
  ReadStreamOptions,
  RecordedEvent,
  StreamAppend,
  SubscribeOptions,
  Subscription,
  WrongExpectedVersionError,
} from '../event-store';
import { WakeSignal } from '../wake-signal';
import { catchUpSubscription } from '../catch-up-subscription';
import { GroupCommit } from './group-commit';
import { unavailableIfDisconnected } from './postgres-unavailable';

const NOTIFY_CHANNEL = 'svc_events';
const APPEND_RETRIES = 20;
const LISTEN_RECONNECT_MS = 2_000;
const NOTIFY_COALESCE_MS = 10;

interface EventRow {
  position: string;
  commit_position: string;
  event_id: string;
  stream_id: string;
  revision: string;
  type: string;
  data: Record<string, unknown>;
  metadata: RecordedEvent['metadata'];
}

/**
 * How each expected state moves the stream's head row (`streams`), returning the
 * new last revision, or nothing when the expectation fails. `$6` is the number
 * of events, `$7` the expected revision. Writers to one stream queue on its row
 * lock; one whose expectation no longer holds after the wait gets no row.
 */
const HEAD_MOVES = {
  any: `INSERT INTO streams (stream_id, revision) VALUES ($1, $6::bigint - 1)
        ON CONFLICT (stream_id) DO UPDATE SET revision = streams.revision + $6::bigint
        RETURNING revision`,
  no_stream: `INSERT INTO streams (stream_id, revision) VALUES ($1, $6::bigint - 1)
              ON CONFLICT (stream_id) DO NOTHING
              RETURNING revision`,
  exists: `UPDATE streams SET revision = revision + $6::bigint WHERE stream_id = $1 RETURNING revision`,
  revision: `UPDATE streams SET revision = revision + $6::bigint WHERE stream_id = $1 AND revision = $7::bigint RETURNING revision`,
};

type AppendVariant = keyof typeof HEAD_MOVES;

/**
 * One statement: move the stream head, then insert the events after the old
 * head. `rows` says where the new rows come from: arrays for several events,
 * plain parameters for the common single event (no arrays to build and parse).
 */
function appendStatements(rows: string): Record<AppendVariant, string> {
  const entries = Object.entries(HEAD_MOVES).map(([variant, move]) => [
    variant,
    `WITH head AS (${move})
     INSERT INTO events (event_id, stream_id, revision, type, data, metadata)
     ${rows}
     RETURNING revision, position, transaction_id::text AS commit_position`,
  ]);
  return Object.fromEntries(entries) as Record<AppendVariant, string>;
}

const APPEND_MANY_SQL = appendStatements(
  `SELECT e.event_id, $1, head.revision - $6::bigint + e.ord, e.type, e.data, e.metadata
     FROM head, unnest($2::uuid[], $3::text[], $4::jsonb[], $5::jsonb[]) WITH ORDINALITY AS e(event_id, type, data, metadata, ord)`,
);
const APPEND_ONE_SQL = appendStatements(`SELECT $2::uuid, $1, head.revision, $3, $4::jsonb, $5::jsonb FROM head`);

/**
 * Appends to several distinct, existing streams in one statement, so in one
 * commit, each append on its own: one whose expectation fails, whose stream
 * has no head row yet, or whose head another writer holds inserts nothing.
 * Heads are locked with SKIP LOCKED, so the shared statement never waits on a
 * writer (nor can it join a deadlock over heads); creating a head would wait
 * on anyone else creating it, so new streams are appended alone. Parameters:
 * per append `$1` stream, `$2` expectation, `$3` expected revision, `$4` event
 * count; per event `$5` its stream, `$6` how many events follow it in its
 * append, then id, type, data and metadata.
 */
const GROUP_APPEND_SQL = `
  WITH allowed AS MATERIALIZED (
    SELECT r.stream_id, r.n
      FROM unnest($1::text[], $2::text[], $3::bigint[], $4::int[]) AS r(stream_id, expectation, expected_revision, n)
      JOIN (
        SELECT stream_id, revision FROM streams WHERE stream_id = ANY($1::text[])
         ORDER BY stream_id COLLATE "C" FOR UPDATE SKIP LOCKED
      ) head USING (stream_id)
     WHERE r.expectation IN ('any', 'exists') OR (r.expectation = 'revision' AND head.revision = r.expected_revision)
  ),
  moved AS (
    UPDATE streams s SET revision = s.revision + a.n
      FROM allowed a
     WHERE s.stream_id = a.stream_id
    RETURNING s.stream_id, s.revision
  )
  INSERT INTO events (event_id, stream_id, revision, type, data, metadata)
  SELECT e.event_id, e.stream_id, moved.revision - e.following, e.type, e.data, e.metadata
    FROM unnest($5::text[], $6::int[], $7::uuid[], $8::text[], $9::jsonb[], $10::jsonb[])
           WITH ORDINALITY AS e(stream_id, following, event_id, type, data, metadata, ord)
    JOIN moved USING (stream_id)
   ORDER BY e.ord
  RETURNING stream_id, revision, position, transaction_id::text AS commit_position`;

/**
 * Group commit: how many appends may commit at once before further ones wait
 * to share a commit, and how many one commit may carry. Two batches in flight
 * let one execute while the other waits for its WAL flush.
 */
const GROUP_COMMIT = { maxInFlight: 2, maxBatch: 64 };

const SELECT_COLUMNS = `position, transaction_id::text AS commit_position, event_id, stream_id, revision, type, data, metadata`;

/**
 * The event store on one append-only PostgreSQL table, plus a head row per
 * stream (see the migrations).
 *
 * An append is a single statement that moves the stream's head row and inserts
 * the events after it: writers to one stream queue on that row, and one whose
 * expected revision no longer holds gets a wrong-expected-version error. Under
 * load, appends from concurrent callers share a statement and its commit
 * (GroupCommit), which is what bounds throughput here, not the rows written.
 * Readers of the global log only see rows written by transactions older than
 * every transaction still running, so a sequence number that commits late is
 * never skipped.
 */
export class PostgresEventStore extends EventStore {
  private readonly wake = new WakeSignal();
  /** The furthest position this process appended: subscribers poll eagerly until they have seen it. */
  private lastLocalWrite: LogPosition | undefined;
  private listener: Client | undefined;
  private listenerTimer: NodeJS.Timeout | undefined;
  private notifyPending = false;
  private closed = false;
  /** Reads of the global log under way, by position and page size. */
  private readonly logReads = new Map<string, Promise<EventRow[]>>();
  private wakes = 0;
  private readonly groupCommit = new GroupCommit((batch: StreamAppend[]) => this.commitBatch(batch), {
    ...GROUP_COMMIT,
    keyOf: (append) => append.streamId,
  });

  constructor(
    private readonly pool: Pool,
    private readonly now: () => Date = () => new Date(),
  ) {
    super();
  }

  async append(streamId: string, events: NewEvent[], expected: ExpectedState): Promise<AppendResult> {
    if (events.length === 0) throw new Error('append needs at least one event');
    const [variant] = variantOf(expected); // refuses a malformed expectation before it joins a batch
    const now = this.now();
    const append = {
      streamId,
      events: withIds(events).map((e) => ({ ...e, metadata: completeMetadata(e.metadata, now) })),
      expected,
    };
    // Creating a stream is never grouped (see GROUP_APPEND_SQL).
    const appended = variant === 'no_stream' ? this.appendAlone(append) : this.groupCommit.submit(append);
    return appended.catch(unavailableIfDisconnected('append'));
  }

  async appendAtomically(appends: StreamAppend[]): Promise<AppendResult[]> {
    // One stream is atomic on its own: it may share a group commit with other writers' appends.
    if (appends.length === 1) return [await this.append(appends[0].streamId, appends[0].events, appends[0].expected)];
    // One lock order for every caller, so two atomic appends over the same streams cannot deadlock.
    const order = lockOrder(appends);
    const sorted = await this.appendSorted(order.map((i) => ({ ...appends[i], events: withIds(appends[i].events) }))).catch(
      unavailableIfDisconnected('append atomically'),
    );
    const results: AppendResult[] = new Array(appends.length);
    order.forEach((original, position) => (results[original] = sorted[position]));
    return results;
  }

  private async appendSorted(prepared: StreamAppend[]): Promise<AppendResult[]> {
    for (let attempt = 0; ; attempt++) {
      const client = await this.pool.connect();
      let violation: UniqueViolation;
      try {
        await client.query('BEGIN');
        const results: AppendResult[] = [];
        for (const append of prepared) results.push(await this.appendWith(client, append));
        await client.query('COMMIT');
        this.announce(results);
        return results;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        if (!(error instanceof UniqueViolation)) throw error;
        violation = error;
      } finally {
        client.release();
      }
      // A retried atomic append whose events are all stored already is a no-op.
      const stored = await Promise.all(prepared.map((a) => this.alreadyStored(a.streamId, a.events)));
      if (stored.every((s): s is AppendResult => s !== null)) return stored;
      const outcome = await this.settleConflict(violation);
      const error =
        outcome instanceof Error
          ? outcome
          : new WrongExpectedVersionError(violation.append.streamId, violation.append.expected, null);
      if (!isRetryableRace(violation, error) || attempt >= APPEND_RETRIES) throw error;
    }
  }

  /**
   * Appends from concurrent callers share one statement and one commit. One the
   * shared statement could not make (a failed expectation, a stream without a
   * head yet, a head another writer holds), and every append of a batch that
   * failed as a whole (a reused event id, say), go on alone, where each meets
   * its own fate without holding up the rest.
   */
  private async commitBatch(batch: StreamAppend[]): Promise<Promise<AppendResult>[]> {
    const made = batch.length > 1 ? await this.appendGroup(batch).catch(() => []) : [];
    if (made.some(Boolean)) this.announce(made);
    return batch.map((append, i) => (made[i] ? Promise.resolve(made[i]) : this.appendAlone(append)));
  }

  /** Each append's result, or null for one the shared statement did not make. */
  private async appendGroup(batch: StreamAppend[]): Promise<(AppendResult | null)[]> {
    const now = this.now();
    const [streams, expectations, expectedRevisions, counts] = [[], [], [], []] as unknown[][];
    const [eventStreams, following, eventIds, types, data, metadata] = [[], [], [], [], [], []] as unknown[][];
    for (const { streamId, events, expected } of batch) {
      const [variant, revision] = variantOf(expected);
      streams.push(streamId);
      expectations.push(variant);
      expectedRevisions.push(revision);
      counts.push(events.length);
      events.forEach((event, i) => {
        eventStreams.push(streamId);
        following.push(events.length - 1 - i);
        eventIds.push(event.eventId);
        types.push(event.type);
        data.push(JSON.stringify(event.data));
        metadata.push(JSON.stringify(completeMetadata(event.metadata, now)));
      });
    }
    const { rows } = await this.pool.query<{ stream_id: string; revision: string; position: string; commit_position: string }>({
      name: 'svc-append-group',
      text: GROUP_APPEND_SQL,
      values: [streams, expectations, expectedRevisions, counts, eventStreams, following, eventIds, types, data, metadata],
    });
    // Streams are distinct within a batch: an append's result is its stream's last event.
    const last = new Map<string, AppendResult>();
    for (const row of rows) {
      const result = {
        revision: Number(row.revision),
        position: new LogPosition(BigInt(row.commit_position), BigInt(row.position)),
      };
      const seen = last.get(row.stream_id);
      if (!seen || result.revision > seen.revision) last.set(row.stream_id, result);
    }
    return batch.map((append) => last.get(append.streamId) ?? null);
  }

  private async appendAlone(append: StreamAppend): Promise<AppendResult> {
    for (let attempt = 0; ; attempt++) {
      try {
        const result = await this.appendWith(this.pool, append);
        this.announce([result]);
        return result;
      } catch (error) {
        if (!(error instanceof UniqueViolation)) throw error;
        const outcome = await this.settleConflict(error);
        if (!(outcome instanceof Error)) return outcome;
        if (!isRetryableRace(error, outcome) || attempt >= APPEND_RETRIES) throw outcome;
      }
    }
  }

  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const { rows } = await this.pool
      .query<EventRow>({
        name: 'svc-read-stream',
        text: `SELECT ${SELECT_COLUMNS} FROM events
              WHERE stream_id = $1 AND revision >= $2
              ORDER BY revision
              LIMIT $3`,
        values: [streamId, options.fromRevision ?? 0, options.maxCount ?? null],
      })
      .catch(unavailableIfDisconnected('read a stream'));
    return rows.map(toRecordedEvent);
  }

  async readAll(options: ReadAllOptions): Promise<RecordedEvent[]> {
    const after = options.after ?? LogPosition.START;
    const key = `${this.wakes}:${after.commit}/${after.prepare}/${options.maxCount ?? ''}`;
    const inFlight = this.logReads.get(key);
    // Every subscriber wakes on the same commit and asks for the same page: one query answers them all,
    // each with its own copy, since consumers own the events they are handed.
    if (inFlight) return (await inFlight).map((row) => toRecordedEvent(copyOfJson(row)));
    const read = this.queryLog(after, options.maxCount);
    this.logReads.set(key, read);
    try {
      return (await read).map(toRecordedEvent);
    } finally {
      this.logReads.delete(key);
    }
  }

  private async queryLog(after: LogPosition, maxCount: number | undefined): Promise<EventRow[]> {
    const { rows } = await this.pool
      .query<EventRow>({
        name: 'svc-read-all',
        text: `SELECT ${SELECT_COLUMNS} FROM events
              WHERE (transaction_id, position) > ($1::text::xid8, $2::bigint)
                AND transaction_id < pg_snapshot_xmin(pg_current_snapshot())
              ORDER BY transaction_id, position
              LIMIT $3`,
        values: [after.commit.toString(), after.prepare.toString(), maxCount],
      })
      .catch(unavailableIfDisconnected('read the log'));
    return rows;
  }

  subscribe(options: SubscribeOptions): Subscription {
    this.listen();
    return catchUpSubscription(
      (o) => this.readAll(o),
      this.wake,
      options,
      (after) => this.lastLocalWrite !== undefined && (after === undefined || this.lastLocalWrite.isAfter(after)),
    );
  }

  async headPosition(): Promise<LogPosition | null> {
    const { rows } = await this.pool
      .query<{ commit_position: string; position: string }>(
        `SELECT transaction_id::text AS commit_position, position FROM events
        WHERE transaction_id < pg_snapshot_xmin(pg_current_snapshot())
        ORDER BY transaction_id DESC, position DESC
        LIMIT 1`,
      )
      .catch(unavailableIfDisconnected('read the head of the log'));
    return rows[0] ? new LogPosition(BigInt(rows[0].commit_position), BigInt(rows[0].position)) : null;
  }

  async ping(): Promise<void> {
    await this.pool.query('SELECT 1 FROM events LIMIT 0').catch(unavailableIfDisconnected('answer a ping'));
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.listenerTimer);
    const listener = this.listener;
    this.listener = undefined;
    await listener?.end().catch(() => undefined);
  }

  /**
   * `db` is the pool for a lone append, or the transaction's client. A lost
   * race returns no row rather than an error, so connections are not dropped
   * for it (pg's pool closes a connection whose query failed).
   */
  private async appendWith(db: Pool | PoolClient, append: StreamAppend): Promise<AppendResult> {
    const { streamId, events, expected } = append;
    if (events.length === 0) throw new Error('append needs at least one event');
    const now = this.now();
    const ids = events.map((e) => e.eventId as string);
    const single = events.length === 1;
    const params: unknown[] = single
      ? [
          streamId,
          ids[0],
          events[0].type,
          JSON.stringify(events[0].data),
          JSON.stringify(completeMetadata(events[0].metadata, now)),
        ]
      : [
          streamId,
          ids,
          events.map((e) => e.type),
          events.map((e) => JSON.stringify(e.data)),
          events.map((e) => JSON.stringify(completeMetadata(e.metadata, now))),
        ];
    params.push(events.length);
    const [variant, revision] = variantOf(expected);
    if (variant === 'revision') params.push(revision);
    let rows: { revision: string; position: string; commit_position: string }[];
    try {
      // Named, so each connection parses and plans it once.
      ({ rows } = await db.query(
        single
          ? { name: `svc-append-one-${variant}`, text: APPEND_ONE_SQL[variant], values: params }
          : { name: `svc-append-${variant}`, text: APPEND_MANY_SQL[variant], values: params },
      ));
    } catch (error) {
      if (error instanceof DatabaseError && error.code === '23505') throw new UniqueViolation(append, error.constraint);
      throw error;
    }
    if (rows.length === 0) {
      const stored = await this.alreadyStored(streamId, events, db);
      if (stored) return stored;
      throw new WrongExpectedVersionError(streamId, expected, await this.streamRevision(streamId, db));
    }
    let last = rows[0];
    for (const row of rows) if (BigInt(row.position) > BigInt(last.position)) last = row;
    return { revision: Number(last.revision), position: new LogPosition(BigInt(last.commit_position), BigInt(last.position)) };
  }

  /** After a unique violation: an identical retry is a no-op, anything else an error. */
  private async settleConflict(violation: UniqueViolation): Promise<AppendResult | Error> {
    const { append, constraint } = violation;
    const stored = await this.alreadyStored(append.streamId, append.events);
    if (stored) return stored;
    if (constraint === 'events_event_id_key') {
      const { rows } = await this.pool.query<{ event_id: string }>(
        'SELECT event_id FROM events WHERE event_id = ANY($1::uuid[]) LIMIT 1',
        [append.events.map((e) => e.eventId)],
      );
      return new DuplicateEventIdError(rows[0]?.event_id ?? String(append.events[0].eventId));
    }
    return new WrongExpectedVersionError(append.streamId, append.expected, await this.streamRevision(append.streamId));
  }

  private async alreadyStored(
    streamId: string,
    events: NewEvent[],
    db: Pool | PoolClient = this.pool,
  ): Promise<AppendResult | null> {
    const ids = events.map((e) => e.eventId);
    const { rows } = await db.query<{ stream_id: string; revision: string; position: string; commit_position: string }>(
      `SELECT stream_id, revision, position, transaction_id::text AS commit_position
         FROM events WHERE event_id = ANY($1::uuid[])
         ORDER BY transaction_id, position`,
      [ids],
    );
    if (rows.length !== ids.length || rows.some((r) => r.stream_id !== streamId)) return null;
    const last = rows[rows.length - 1];
    return { revision: Number(last.revision), position: new LogPosition(BigInt(last.commit_position), BigInt(last.position)) };
  }

  private async streamRevision(streamId: string, db: Pool | PoolClient = this.pool): Promise<number> {
    const { rows } = await db.query<{ revision: string }>('SELECT revision FROM streams WHERE stream_id = $1', [streamId]);
    return rows[0] ? Number(rows[0].revision) : -1;
  }

  /**
   * Wakes local subscribers now, and other processes through a NOTIFY sent at
   * most once per NOTIFY_COALESCE_MS: each NOTIFY is a commit of its own that
   * takes a cluster-wide lock, so one per append would halve append throughput.
   */
  private announce(written: (AppendResult | null)[]): void {
    for (const result of written)
      if (result && (!this.lastLocalWrite || result.position.isAfter(this.lastLocalWrite))) this.lastLocalWrite = result.position;
    this.wakeSubscribers();
    if (this.notifyPending || this.closed) return;
    this.notifyPending = true;
    setTimeout(() => {
      this.pool
        .query(`SELECT pg_notify('${NOTIFY_CHANNEL}', '')`)
        .catch(() => undefined) // subscribers poll anyway
        .finally(() => (this.notifyPending = false));
    }, NOTIFY_COALESCE_MS);
  }

  /** A read joins one under way only if no wake-up came since it began, so it never misses what woke it. */
  private wakeSubscribers(): void {
    this.wakes++;
    this.wake.notify();
  }

  private listen(): void {
    if (this.listener || this.closed) return;
    const options = (this.pool as unknown as { options: ConstructorParameters<typeof Client>[0] }).options;
    const client = new Client(options);
    this.listener = client;
    const retry = () => {
      if (this.listener !== client) return;
      this.listener = undefined;
      client.end().catch(() => undefined);
      if (!this.closed) this.listenerTimer = setTimeout(() => this.listen(), LISTEN_RECONNECT_MS);
    };
    client.on('notification', () => this.wakeSubscribers());
    client.on('error', retry);
    client
      .connect()
      .then(() => client.query(`LISTEN ${NOTIFY_CHANNEL}`))
      .catch(retry);
  }
}

class UniqueViolation extends Error {
  constructor(
    readonly append: StreamAppend,
    readonly constraint: string | undefined,
  ) {
    super(`unique violation on ${constraint}`);
  }
}

/** An `any`/`exists` append that lost a race on the stream head simply tries again. */
function isRetryableRace(violation: UniqueViolation, outcome: Error): boolean {
  const expected = violation.append.expected;
  return outcome instanceof WrongExpectedVersionError && (expected === 'any' || expected === 'exists');
}

/** The statement variant an expectation needs, and for `revision` the number. */
function variantOf(expected: ExpectedState): [AppendVariant, number | null] {
  if (expected === 'any' || expected === 'no_stream' || expected === 'exists') return [expected, null];
  if (expected === -1) return ['no_stream', null];
  if (!Number.isSafeInteger(expected) || expected < -1) throw new Error(`invalid expected revision ${expected}`);
  return ['revision', expected];
}

/**
 * Indexes of `appends` in the order their stream heads are locked: by the
 * UTF-8 bytes of the stream id, as PostgreSQL's "C" collation sorts, so that
 * atomic appends and group commits never wait on each other in a cycle.
 */
function lockOrder(appends: StreamAppend[]): number[] {
  const keys = appends.map((a) => Buffer.from(a.streamId, 'utf8'));
  return appends.map((_, i) => i).sort((a, b) => Buffer.compare(keys[a], keys[b]) || a - b);
}

function withIds(events: NewEvent[]): NewEvent[] {
  return events.map((e) => (e.eventId ? e : { ...e, eventId: randomUUID() }));
}

/** A deep copy of plain JSON (what the driver parses from a row), several times cheaper than structuredClone. */
function copyOfJson<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(copyOfJson) as T;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) copy[key] = copyOfJson((value as Record<string, unknown>)[key]);
  return copy as T;
}

function toRecordedEvent(row: EventRow): RecordedEvent {
  return {
    eventId: row.event_id,
    type: row.type,
    streamId: row.stream_id,
    revision: Number(row.revision),
    position: new LogPosition(BigInt(row.commit_position), BigInt(row.position)),
    data: row.data,
    metadata: row.metadata,
  };
}
