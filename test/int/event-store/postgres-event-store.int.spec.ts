import { randomUUID } from 'node:crypto';
import { DuplicateEventIdError } from '../../../src/event-store/event-store';
import { PostgresEventStore } from '../../../src/event-store/postgres/postgres-event-store';
import { createTestDatabase, openPool, TestDatabase } from '../../support/database';
import { eventStoreContract } from './event-store.contract';

describe('PostgreSQL event store', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => db?.drop());

  eventStoreContract(
    async () => {
      const pool = openPool(db.url, 24);
      const store = new PostgresEventStore(pool);
      return { store, close: async () => (await store.close(), await pool.end()) };
    },
    { atomicAppends: true },
  );

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
    const writerPool = openPool(db.url, 2);
    const readerPool = openPool(db.url, 2);
    const writer = new PostgresEventStore(writerPool);
    const reader = new PostgresEventStore(readerPool);
    const after = (await reader.headPosition()) ?? undefined;
    const id = `notify-${randomUUID()}`;
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
    // Let the subscriber drain and go idle (its poll interval grows to a second).
    await new Promise((r) => setTimeout(r, 1_500));
    await writer.append(id, [{ type: 'Ping', data: {} }], 'no_stream');
    await expect(seen).resolves.toBe('Ping');
    await writer.close();
    await reader.close();
    await writerPool.end();
    await readerPool.end();
  });
});
