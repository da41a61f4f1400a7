import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { AppendResult, DuplicateEventIdError, WrongExpectedVersionError } from '../../../src/event-store/event-store';
import { PostgresEventStore } from '../../../src/event-store/postgres/postgres-event-store';
import { createTestDatabase, openPool, TestDatabase } from '../../support/database';
import { eventually } from '../../support/eventually';
import { eventStoreContract } from './event-store.contract';

describe('PostgreSQL event store', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => db?.drop());

  eventStoreContract(async () => {
    const pool = openPool(db.url, 24);
    const store = new PostgresEventStore(pool);
    return { store, close: async () => (await store.close(), await pool.end()) };
  });

  it('refuses to reuse an event id in another stream', async () => {
    const pool = openPool(db.url, 2);
    const store = new PostgresEventStore(pool);
    const eventId = randomUUID();
    await store.append(`a-${randomUUID()}`, [{ type: 'X', data: {}, eventId }], 'no_stream');
    await expect(store.append(`b-${randomUUID()}`, [{ type: 'X', data: {}, eventId }], 'no_stream')).rejects.toBeInstanceOf(
      DuplicateEventIdError,
    );
    await store.close();
    await pool.end();
  });

  it('answers a retried atomic append with the positions of the first', async () => {
    const pool = openPool(db.url, 2);
    const store = new PostgresEventStore(pool);
    const appends = [`a-${randomUUID()}`, `b-${randomUUID()}`].map((streamId) => ({
      streamId,
      events: [{ type: 'X', data: {}, eventId: randomUUID() }],
      expected: 'no_stream' as const,
    }));
    const first = await store.appendAtomically(appends);
    const again = await store.appendAtomically(appends);
    expect(again.map((r) => r.position.toString())).toEqual(first.map((r) => r.position.toString()));
    await store.close();
    await pool.end();
  });

  it('answers identical concurrent reads of the log with one query, each reader with its own copy', async () => {
    const pool = openPool(db.url, 4);
    const store = new PostgresEventStore(pool);
    const streamId = `shared-${randomUUID()}`;
    await store.append(streamId, [{ type: 'X', data: { nested: { n: 1 } }, eventId: randomUUID() }], 'no_stream');
    const logQueries = countNamedQueries(pool, 'svc-read-all');

    const reads = await Promise.all(Array.from({ length: 5 }, () => store.readAll({ maxCount: 10_000 })));
    expect(logQueries()).toBe(1);
    const mine = reads.map((events) => events.find((e) => e.streamId === streamId)!);
    expect(mine.every((event) => event.data.nested !== undefined)).toBe(true);
    expect(new Set(mine.map((event) => event.data.nested)).size).toBe(5); // never one object shared by two readers

    // A read begun after a wake-up (every append wakes subscribers) never joins one begun before it, which could
    // miss what woke it. Woken by hand, so that the first read is surely still under way.
    const queried = logQueries();
    const before = store.readAll({ maxCount: 10_000 });
    const joining = store.readAll({ maxCount: 10_000 });
    (store as unknown as { wakeSubscribers(): void }).wakeSubscribers();
    const after = store.readAll({ maxCount: 10_000 });
    expect(logQueries()).toBe(queried + 2);
    await Promise.all([before, joining, after]);
    await store.close();
    await pool.end();
  });

  it('orders the log by transaction numerically, also across a digit boundary', async () => {
    // Its own database: rows with hand-picked small transaction ids sort before everything else.
    const own = await createTestDatabase();
    const pool = openPool(own.url, 2);
    const store = new PostgresEventStore(pool);
    try {
      for (const [tx, stream] of [
        ['10', 'ten'],
        ['9', 'nine'],
        ['100', 'hundred'],
      ]) {
        await pool.query(
          `INSERT INTO events (transaction_id, event_id, stream_id, revision, type, data, metadata)
           VALUES ($1::xid8, $2, $3, 0, 'X', '{}', '{"schemaVersion": 1, "occurredAt": "2026-01-01T00:00:00Z"}')`,
          [tx, randomUUID(), stream],
        );
      }
      expect((await store.readAll({ maxCount: 10 })).map((e) => e.streamId)).toEqual(['nine', 'ten', 'hundred']);
      const [first] = await store.readAll({ maxCount: 1 });
      expect((await store.readAll({ after: first.position, maxCount: 10 })).map((e) => e.streamId)).toEqual(['ten', 'hundred']);
      expect((await store.headPosition())?.commit).toBe(100n);
    } finally {
      await store.close();
      await pool.end();
      await own.drop();
    }
  });

  it('keeps the log append-only', async () => {
    const pool = openPool(db.url, 2);
    const store = new PostgresEventStore(pool);
    await store.append(`a-${randomUUID()}`, [{ type: 'X', data: {} }], 'no_stream');
    await expect(pool.query('DELETE FROM events')).rejects.toThrow(/append-only/);
    await expect(pool.query("UPDATE events SET type = 'Y'")).rejects.toThrow(/append-only/);
    await store.close();
    await pool.end();
  });

  it('wakes a subscriber in another process through NOTIFY', async () => {
    // The reader's own name, so its LISTEN session can be told from other stores' in pg_stat_activity.
    const readerName = `notify-reader-${randomUUID()}`;
    const readerUrl = new URL(db.url);
    readerUrl.searchParams.set('application_name', readerName);
    const writerPool = openPool(db.url, 2);
    const readerPool = openPool(readerUrl.toString(), 2);
    const writer = new PostgresEventStore(writerPool);
    const reader = new PostgresEventStore(readerPool);
    const after = (await reader.headPosition()) ?? undefined;
    const id = `notify-${randomUUID()}`;
    // The reader's reads, timed: one that follows the one before sooner than the poll interval was woken.
    const reads: { start: number; end: number }[] = [];
    const readAll = reader.readAll.bind(reader);
    jest.spyOn(reader, 'readAll').mockImplementation(async (options) => {
      const start = Date.now();
      const events = await readAll(options);
      reads.push({ start, end: Date.now() });
      return events;
    });
    const pauseBefore = (i: number) => reads[i].start - reads[i - 1].end;
    const seen = new Promise<string>((resolve) => {
      const subscription = reader.subscribe({
        after,
        onEvents: async (events) => {
          const mine = events.find((e) => e.streamId === id);
          if (mine) {
            resolve(mine.type);
            void subscription.stop();
          }
        },
      });
    });
    // Append once the reader listens (a NOTIFY sent before its LISTEN is lost) and its idle polls are about
    // a second apart, so that a poll cannot pass for a wake-up.
    await eventually(
      async () => {
        const { rows } = await writerPool.query(
          "SELECT 1 FROM pg_stat_activity WHERE application_name = $1 AND query = 'LISTEN svc_events' AND state = 'idle'",
          [readerName],
        );
        return rows.length > 0 && reads.length > 1 && pauseBefore(reads.length - 1) >= 900;
      },
      { intervalMs: 10, description: 'the subscriber to listen and poll slowly' },
    );
    const idlePause = pauseBefore(reads.length - 1);
    const firstReadAfter = reads.length;
    await writer.append(id, [{ type: 'Ping', data: {} }], 'no_stream');
    await expect(seen).resolves.toBe('Ping');
    // It read again before its poll was due: woken, and only a NOTIFY wakes a reader that appends nothing.
    // (That read may still miss the event while other transactions hold the visibility horizon back.)
    expect(pauseBefore(firstReadAfter)).toBeLessThan(idlePause - 50);
    await writer.close();
    await reader.close();
    await writerPool.end();
    await readerPool.end();
  });

  describe('group commit', () => {
    const open = () => {
      const pool = openPool(db.url, 8);
      return { pool, store: new PostgresEventStore(pool) };
    };
    const one = (type = 'X', eventId?: string) => [{ type, data: {}, eventId }];
    const commitsOf = (results: { position: { commit: bigint } }[]) => new Set(results.map((r) => r.position.commit)).size;

    it('lets concurrent appends share commits, each with its own result', async () => {
      const { pool, store } = open();
      const streams = Array.from({ length: 16 }, (_, i) => `group-${i}-${randomUUID()}`);
      // Creating a stream goes alone (see GROUP_APPEND_SQL); appends to existing streams group.
      const created = await Promise.all(streams.map((id) => store.append(id, one(), 'no_stream')));
      expect(commitsOf(created)).toBe(streams.length);
      const results = await Promise.all(streams.map((id, i) => store.append(id, one(`Next${i}`), 0)));
      expect(results.map((r) => r.revision)).toEqual(streams.map(() => 1));
      expect(commitsOf(results)).toBeLessThan(streams.length);
      for (const [i, id] of streams.entries()) {
        const [, stored] = await store.readStream(id);
        expect([stored.type, stored.position.toString()]).toEqual([`Next${i}`, results[i].position.toString()]);
      }
      await store.close();
      await pool.end();
    });

    it('fails only the appends whose expectation fails, not the rest of their commit', async () => {
      const { pool, store } = open();
      const existing = Array.from({ length: 6 }, () => `group-x-${randomUUID()}`);
      await Promise.all(existing.map((id) => store.append(id, one(), 'no_stream')));
      const missing = `group-missing-${randomUUID()}`;
      const outcomes = await Promise.allSettled([
        store.append(existing[0], one(), 0),
        store.append(existing[1], one(), 5), // stale: the stream is at 0
        store.append(existing[2], one(), 'exists'),
        store.append(existing[3], one(), 'no_stream'), // the stream exists
        store.append(
          existing[4],
          [
            { type: 'A', data: {} },
            { type: 'B', data: {} },
          ],
          'any',
        ),
        store.append(missing, one(), 'exists'), // no such stream
        store.append(existing[5], one(), 0),
      ]);
      expect(outcomes.map((o) => o.status)).toEqual([
        'fulfilled',
        'rejected',
        'fulfilled',
        'rejected',
        'fulfilled',
        'rejected',
        'fulfilled',
      ]);
      const landed = outcomes
        .filter((o) => o.status === 'fulfilled')
        .map((o) => (o as PromiseFulfilledResult<AppendResult>).value);
      expect(commitsOf(landed)).toBeLessThan(landed.length);
      const refusals = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected').map((o) => o.reason);
      expect(refusals.every((r) => r instanceof WrongExpectedVersionError)).toBe(true);
      expect(refusals.map((r: WrongExpectedVersionError) => [r.streamId, r.actual])).toEqual([
        [existing[1], 0],
        [existing[3], 0],
        [missing, -1],
      ]);
      expect((outcomes[4] as PromiseFulfilledResult<{ revision: number }>).value.revision).toBe(2);
      expect((await store.readStream(existing[4])).map((e) => [e.type, e.revision])).toEqual([
        ['X', 0],
        ['A', 1],
        ['B', 2],
      ]);
      expect(await store.readStream(existing[1])).toHaveLength(1);
      expect(await store.readStream(missing)).toEqual([]);
      await store.close();
      await pool.end();
    });

    it('keeps a reused event id from failing the other appends of its commit', async () => {
      const { pool, store } = open();
      const taken = randomUUID();
      await store.append(`group-first-${randomUUID()}`, one('X', taken), 'no_stream');
      const others = Array.from({ length: 7 }, () => `group-other-${randomUUID()}`);
      const thief = `group-thief-${randomUUID()}`;
      await Promise.all([...others, thief].map((id) => store.append(id, one(), 'no_stream')));
      const outcomes = await Promise.allSettled([
        ...others.map((id) => store.append(id, one(), 'any')),
        store.append(thief, one('X', taken), 'any'),
      ]);
      expect(outcomes.slice(0, 7).map((o) => o.status)).toEqual(others.map(() => 'fulfilled'));
      expect(commitsOf(outcomes.slice(0, 7).map((o) => (o as PromiseFulfilledResult<AppendResult>).value))).toBeLessThan(7);
      expect((outcomes[7] as PromiseRejectedResult).reason).toBeInstanceOf(DuplicateEventIdError);
      expect(await store.readStream(thief)).toHaveLength(1);
      await store.close();
      await pool.end();
    });

    it('treats an append retried while the first attempt is still committing as a no-op', async () => {
      const { pool, store } = open();
      const id = `group-retry-${randomUUID()}`;
      const busyStreams = Array.from({ length: 6 }, () => `group-busy-${randomUUID()}`);
      await Promise.all([id, ...busyStreams].map((stream) => store.append(stream, one(), 'no_stream')));
      const events = one('X', randomUUID());
      // An uncommitted row with the same event id stalls the first attempt mid-commit, holding its head:
      // a unique index waits for the transaction that wrote the key.
      const holder = await pool.connect();
      try {
        const [{ pid: holderPid }] = (await holder.query('SELECT pg_backend_pid() AS pid')).rows;
        await holder.query('BEGIN');
        await holder.query(
          `INSERT INTO events (event_id, stream_id, revision, type, data, metadata) VALUES ($1, $2, 0, 'X', '{}', '{}')`,
          [events[0].eventId, `group-holder-${randomUUID()}`],
        );
        // The first attempt is submitted before the busy appends, so it is the oldest waiting item and always
        // shares its batch with some of them, however the slots of the setup's batches are still taken.
        const appends = Promise.all([
          store.append(id, events, 'any'),
          store.append(id, events, 'any'),
          ...busyStreams.map((stream) => store.append(stream, one(), 'any')),
        ]);
        await eventually(
          async () => {
            const { rows } = await pool.query(
              `SELECT 1 FROM pg_stat_activity retry
                 JOIN pg_stat_activity first ON first.pid = ANY(pg_blocking_pids(retry.pid))
                WHERE $1 = ANY(pg_blocking_pids(first.pid))`,
              [holderPid],
            );
            return rows.length > 0;
          },
          { intervalMs: 10, description: 'the retry to wait on the stalled first attempt' },
        );
        await holder.query('ROLLBACK');
        const [first, again, ...others] = await appends;
        expect(again.position.toString()).toBe(first.position.toString());
        expect(others.some((o) => o.position.commit === first.position.commit)).toBe(true);
        expect(await store.readStream(id)).toHaveLength(2);
      } finally {
        holder.release();
      }
      await store.close();
      await pool.end();
    });

    it('never holds up other appends behind a head another writer holds', async () => {
      const { pool, store } = open();
      const hot = `group-hot-${randomUUID()}`;
      const others = Array.from({ length: 10 }, () => `group-cool-${randomUUID()}`);
      await Promise.all([hot, ...others].map((id) => store.append(id, one(), 'no_stream')));
      const holder = await pool.connect();
      try {
        await holder.query('BEGIN');
        await holder.query('SELECT 1 FROM streams WHERE stream_id = $1 FOR UPDATE', [hot]);
        const waiting = [store.append(hot, one(), 'any'), store.append(hot, one(), 'any')];
        const results = await Promise.all(others.map((id) => store.append(id, one(), 'any')));
        expect(results.map((r) => r.revision)).toEqual(others.map(() => 1));
        expect(commitsOf(results)).toBeLessThan(others.length);
        await holder.query('COMMIT');
        expect((await Promise.all(waiting)).map((r) => r.revision).sort()).toEqual([1, 2]);
      } finally {
        holder.release();
      }
      await store.close();
      await pool.end();
    });

    it('takes head locks for atomic appends in byte order', async () => {
      const { pool, store } = open();
      // UTF-16 puts the emoji first; UTF-8 bytes, and so PostgreSQL's "C" collation, put it last.
      const prefix = `group-order-${randomUUID()}`;
      const [fullwidth, emoji] = [`${prefix}-\uff5e`, `${prefix}-\u{1f600}`];
      await store.append(fullwidth, one(), 'no_stream');
      await store.append(emoji, one(), 'no_stream');
      const holder = await pool.connect();
      const prober = await pool.connect();
      try {
        const [{ pid: holderPid }] = (await holder.query('SELECT pg_backend_pid() AS pid')).rows;
        await holder.query('BEGIN');
        await holder.query('SELECT 1 FROM streams WHERE stream_id = $1 FOR UPDATE', [fullwidth]);
        const atomic = store.appendAtomically([
          { streamId: emoji, events: one(), expected: 'any' },
          { streamId: fullwidth, events: one(), expected: 'any' },
        ]);
        // Once it waits on the held head it has locked whatever it locks before that.
        await eventually(
          async () => {
            const { rows } = await pool.query('SELECT 1 FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))', [
              holderPid,
            ]);
            return rows.length > 0;
          },
          { intervalMs: 10, description: 'the atomic append to wait on the held head' },
        );
        // In byte order it waits on the held head first, holding nothing; in UTF-16 order it would hold the emoji.
        await prober.query('BEGIN');
        await expect(
          prober.query('SELECT 1 FROM streams WHERE stream_id = $1 FOR UPDATE NOWAIT', [emoji]),
        ).resolves.toBeDefined();
        await prober.query('ROLLBACK');
        await holder.query('COMMIT');
        await expect(atomic).resolves.toHaveLength(2);
      } finally {
        holder.release();
        prober.release();
      }
      await store.close();
      await pool.end();
    });

    it('keeps every append when atomic and grouped appends contend for the same streams', async () => {
      const { pool, store } = open();
      // UTF-16 and UTF-8 order these two differently; PostgreSQL's "C" collation follows UTF-8.
      const prefix = `group-lock-${randomUUID()}`;
      const streams = ['\uff5e', '\u{1f600}'].map((s) => `${prefix}-${s}`);
      let atomicRounds = 0;
      const atomically = async () => {
        for (let round = 0; round < 100; round++) {
          const shuffled = [...streams].sort(() => Math.random() - 0.5);
          await store.appendAtomically(shuffled.map((id) => ({ streamId: id, events: one('Atomic'), expected: 'any' as const })));
          atomicRounds++;
        }
      };
      let writing = true;
      let grouped = 0;
      const groupedWriter = async (id: string) => {
        while (writing) {
          await store.append(id, one('Grouped'), 'any');
          grouped++;
        }
      };
      const writers = [...streams, ...streams, ...streams].map(groupedWriter);
      // A deadlock would fail an atomic append (PostgreSQL aborts one side after deadlock_timeout).
      await Promise.all([atomically(), atomically()]);
      writing = false;
      await Promise.all(writers);
      expect(atomicRounds).toBe(200);
      let stored = 0;
      for (const id of streams) stored += (await store.readStream(id)).length;
      expect(stored).toBe(200 * streams.length + grouped);
      await store.close();
      await pool.end();
    });
  });
});

/** Counts the prepared statements of a name that the pool sends from now on. */
function countNamedQueries(pool: Pool, name: string): () => number {
  let count = 0;
  const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
  (pool as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
    if ((args[0] as { name?: string })?.name === name) count++;
    return query(...args);
  };
  return () => count;
}
