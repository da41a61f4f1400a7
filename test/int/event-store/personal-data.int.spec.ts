import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { PersonalDataVault, SubjectErasedError } from '../../../src/event-store/personal-data/personal-data-vault';
import { PostgresEventStore } from '../../../src/event-store/postgres/postgres-event-store';
import { ReadingEventStore } from '../../../src/event-store/reading-event-store';
import '../../../src/modules/users/events'; // the event types this test appends
import { createTestDatabase, openPool, TestDatabase } from '../../support/database';
import { eventually } from '../../support/eventually';

describe('personal data in events (crypto-shredding)', () => {
  let db: TestDatabase;
  let pool: Pool;
  let vault: PersonalDataVault;
  let store: ReadingEventStore;
  let adapter: PostgresEventStore;

  beforeAll(async () => {
    db = await createTestDatabase();
    pool = openPool(db.url, 5);
    vault = new PersonalDataVault(pool);
    adapter = new PostgresEventStore(pool);
    store = new ReadingEventStore(adapter, vault);
  });
  afterAll(async () => {
    await adapter.close();
    await pool.end();
    await db.drop();
  });

  it('stores sealed fields, reads them back opened, and reads them as erased once the key is destroyed', async () => {
    const userId = randomUUID();
    const streamId = `user-${userId}`;
    await store.append(
      streamId,
      [
        {
          type: 'UserRegistered',
          data: {
            userId,
            email: await vault.seal(userId, 'ada@example.com'),
            name: await vault.seal(userId, 'Ada Lovelace'),
            plan: 'free',
          },
        },
      ],
      'no_stream',
    );

    const { rows } = await pool.query('SELECT data::text AS raw FROM events WHERE stream_id = $1', [streamId]);
    expect(rows[0].raw).not.toContain('ada@example.com');
    expect(rows[0].raw).not.toContain('Ada Lovelace');

    const [before] = await store.readStream(streamId);
    expect(before.data).toEqual({ userId, email: 'ada@example.com', name: 'Ada Lovelace', plan: 'free' });

    await vault.shred(userId);

    const [after] = await store.readStream(streamId);
    expect(after.data).toEqual({ userId, email: null, name: null, plan: 'free' });
    // The log is read below the oldest transaction still running anywhere on the cluster (another test file's,
    // say), so a reader sees an event once every transaction older than its own has ended.
    const fromLog = await eventually(
      async () => (await store.readAll({ maxCount: 1000 })).find((e) => e.streamId === streamId) ?? false,
      { description: 'the event to be readable from the log' },
    );
    expect(fromLog.data.email).toBeNull();
    await expect(vault.seal(userId, 'again@example.com')).rejects.toBeInstanceOf(SubjectErasedError);
  });

  it('keeps other subjects readable when one is shredded', async () => {
    const kept = randomUUID();
    const gone = randomUUID();
    const data = { a: await vault.seal(kept, 'kept'), b: [await vault.seal(gone, 'gone')] };
    await vault.shred(gone);
    expect(await vault.open(data)).toEqual({ a: 'kept', b: [null] });
  });

  it('never opens a sealed value moved to another subject, and leaves look-alike user input alone', async () => {
    const owner = randomUUID();
    const other = randomUUID();
    await vault.seal(other, 'make a key');
    const sealed = await vault.seal(owner, 'secret');
    const forged = sealed.replace(encodeURIComponent(owner), encodeURIComponent(other));
    const lookAlikes = { forged, unknownSubject: `pd1:${randomUUID()}:abc`, badEscape: 'pd1:%E0%A4%A:abc', noPayload: 'pd1:x' };
    expect(await vault.open(lookAlikes)).toEqual(lookAlikes);
  });
});
