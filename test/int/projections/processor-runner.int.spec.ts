import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { Pool } from 'pg';
import { DataSource, EntityManager } from 'typeorm';
import { EventStore, RecordedEvent } from '../../../src/event-store/event-store';
import { PostgresEventStore } from '../../../src/event-store/postgres/postgres-event-store';
import { Checkpoints } from '../../../src/projections/runner/checkpoints';
import { ProcessManager, Projection } from '../../../src/projections/runner/processor';
import { AdvisoryLockSession } from '../../../src/projections/runner/advisory-lock-session';
import { ProcessorRunner, RunnerOptions } from '../../../src/projections/runner/processor-runner';
import { createTestDatabase, openDataSource, openPool, TestDatabase } from '../../support/database';
import { eventually } from '../../support/eventually';

const quiet = { log: () => undefined, error: () => undefined, warn: () => undefined } as unknown as Logger;
const fast: RunnerOptions = { batchSize: 100, maxAttempts: 2, retryDelayMs: 10, pollMs: 50 };

/** Counts how often each event was applied; any count above one is a double apply. */
class TallyProjection implements Projection {
  readonly eventTypes = ['Counted'];
  failOnce = new Set<string>();
  failAlways = new Set<string>();

  constructor(readonly name: string) {}

  async apply(event: RecordedEvent, tx: EntityManager): Promise<void> {
    await tx.query(
      `INSERT INTO tally (projection, event_id, applied) VALUES ($1, $2, 1)
       ON CONFLICT (projection, event_id) DO UPDATE SET applied = tally.applied + 1`,
      [this.name, event.eventId],
    );
    if (this.failAlways.has(event.eventId)) throw new Error('poison event');
    if (this.failOnce.delete(event.eventId)) throw new Error('transient failure');
  }

  async reset(tx: EntityManager): Promise<void> {
    await tx.query('DELETE FROM tally WHERE projection = $1', [this.name]);
  }
}

describe('processor runner', () => {
  let db: TestDatabase;
  let pool: Pool;
  let store: EventStore;
  const dataSources: DataSource[] = [];
  const runners: ProcessorRunner[] = [];

  const newRunner = async (processor: ConstructorParameters<typeof ProcessorRunner>[0], locks?: AdvisoryLockSession) => {
    const dataSource = await openDataSource(db.url);
    dataSources.push(dataSource);
    const runner = new ProcessorRunner(processor, dataSource, store, quiet, fast, locks);
    runners.push(runner);
    return runner;
  };

  const appendCounted = async (count: number): Promise<string[]> => {
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const eventId = randomUUID();
      ids.push(eventId);
      await store.append(`count-${randomUUID()}`, [{ type: 'Counted', data: { i }, eventId }], 'no_stream');
    }
    return ids;
  };

  const tally = async (projection: string) => {
    const { rows } = await pool.query<{ event_id: string; applied: number }>(
      'SELECT event_id, applied FROM tally WHERE projection = $1',
      [projection],
    );
    return new Map(rows.map((r) => [r.event_id, r.applied]));
  };

  const countedInLog = async () => {
    const { rows } = await pool.query("SELECT count(*)::int AS n FROM events WHERE type = 'Counted'");
    return rows[0].n as number;
  };

  const appliedAll = (projection: string, ids: string[]) => async () => {
    const counts = await tally(projection);
    return ids.every((id) => counts.has(id));
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    pool = openPool(db.url, 10);
    store = new PostgresEventStore(pool);
    await pool.query(
      'CREATE TABLE tally (projection text, event_id uuid, applied int NOT NULL, PRIMARY KEY (projection, event_id))',
    );
  });

  afterEach(async () => {
    await Promise.all(runners.splice(0).map((r) => r.stop()));
  });

  afterAll(async () => {
    await Promise.all(dataSources.map((d) => d.destroy()));
    await store.close();
    await pool.end();
    await db.drop();
  });

  it('applies each event exactly once and commits the checkpoint with the read model', async () => {
    const projection = new TallyProjection('tally-basic');
    const ids = await appendCounted(250);
    const runner = await newRunner({ kind: 'projection', projection });
    await runner.start();
    await eventually(appliedAll(projection.name, ids), { description: 'all events' });
    const counts = await tally(projection.name);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    const checkpoint = await Checkpoints.read(dataSources[0].manager, projection.name);
    expect(checkpoint.position.compare(runner.checkpoint)).toBe(0);
  });

  it('moves past events it does not handle without writing its checkpoint, and stores the position later', async () => {
    const projection = new TallyProjection('tally-skips');
    const ids = await appendCounted(3);
    const dataSource = await openDataSource(db.url);
    dataSources.push(dataSource);
    // No flush during the test: the look-around that stores a skipped-over position comes once a minute here.
    const runner = new ProcessorRunner({ kind: 'projection', projection }, dataSource, store, quiet, { ...fast, pollMs: 60_000 });
    runners.push(runner);
    await runner.start();
    await eventually(appliedAll(projection.name, ids), { description: 'the counted events' });
    await eventually(
      async () => (await Checkpoints.read(dataSource.manager, projection.name)).position.compare(runner.checkpoint) === 0,
      {
        description: 'the checkpoint of the last batch applied',
      },
    );
    const stored = (await Checkpoints.read(dataSource.manager, projection.name)).position;

    const other = await store.append(`other-${randomUUID()}`, [{ type: 'Other', data: {}, eventId: randomUUID() }], 'no_stream');
    await eventually(() => runner.checkpoint.compare(other.position) >= 0, { description: 'the runner past the other event' });
    expect((await Checkpoints.read(dataSource.manager, projection.name)).position.compare(stored)).toBe(0);

    // The next batch it handles stores its checkpoint as before, guarded against the position it last stored.
    const more = await appendCounted(2);
    await eventually(appliedAll(projection.name, more), { description: 'counted events after the other one' });
    await runner.stop();
    expect((await Checkpoints.read(dataSource.manager, projection.name)).position.compare(runner.checkpoint)).toBe(0);
    expect([...(await tally(projection.name)).values()].every((n) => n === 1)).toBe(true);

    // An unhandled tail is stored by the stop, so a restart does not read it again.
    const tail = await store.append(`other-${randomUUID()}`, [{ type: 'Other', data: {}, eventId: randomUUID() }], 'no_stream');
    const again = await newRunner({ kind: 'projection', projection: new TallyProjection('tally-skips') });
    await again.start();
    await eventually(() => again.checkpoint.compare(tail.position) >= 0, { description: 'the restarted runner past the tail' });
    await again.stop();
    expect((await Checkpoints.read(dataSource.manager, projection.name)).position.compare(again.checkpoint)).toBe(0);
  });

  it('runs one active runner per processor when two instances compete, and never double-applies', async () => {
    const projectionA = new TallyProjection('tally-competing');
    const projectionB = new TallyProjection('tally-competing');
    const first = await newRunner({ kind: 'projection', projection: projectionA });
    const second = await newRunner({ kind: 'projection', projection: projectionB });
    await Promise.all([first.start(), second.start()]);
    const ids = await appendCounted(300);
    await eventually(appliedAll('tally-competing', ids), { description: 'all events' });
    expect([first.isActive, second.isActive].filter(Boolean)).toHaveLength(1);

    // The active one goes away (an instance stops); the standby takes over from the checkpoint.
    const [active, standby] = first.isActive ? [first, second] : [second, first];
    await active.stop();
    const more = await appendCounted(50);
    await eventually(appliedAll('tally-competing', more), { description: 'events after failover' });
    expect(standby.isActive).toBe(true);
    const counts = await tally('tally-competing');
    expect(counts.size).toBe(await countedInLog());
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
  });

  it('rolls back a batch whose checkpoint another runner moved meanwhile, and goes on from the stored one', async () => {
    // A runner that lost its lock unnoticed: while it applies an event, another one moves the checkpoint past it.
    const projection = new (class extends TallyProjection {
      moveOn: string | undefined;
      async apply(event: RecordedEvent, tx: EntityManager): Promise<void> {
        await super.apply(event, tx);
        if (event.eventId !== this.moveOn) return;
        await pool.query('UPDATE processor_checkpoints SET commit_position = $2, prepare_position = $3 WHERE name = $1', [
          this.name,
          event.position.commit.toString(),
          event.position.prepare.toString(),
        ]);
      }
    })('tally-moved');
    const runner = await newRunner({ kind: 'projection', projection });
    await runner.start();
    const first = await appendCounted(1);
    await eventually(appliedAll(projection.name, first), { description: 'the first event' });

    projection.moveOn = (await appendCounted(1))[0];

    const next = await appendCounted(1);

    // It stepped down and went on from the stored checkpoint: the moved-past event is someone else's to have applied.
    await eventually(appliedAll(projection.name, next), { description: 'the event after' });
    const counts = await tally(projection.name);
    expect(counts.has(projection.moveOn)).toBe(false); // what it applied rolled back with its batch
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
  });

  it('does not double-apply when a handler fails mid-batch, and survives a restart', async () => {
    const projection = new TallyProjection('tally-crash');
    const ids = await appendCounted(60);
    projection.failOnce.add(ids[30]); // the batch rolls back after 30 events were written
    const runner = await newRunner({ kind: 'projection', projection });
    await runner.start();
    await eventually(appliedAll(projection.name, ids), { description: 'all events' });
    await runner.stop();

    // A new process picks up from the stored checkpoint.
    const more = await appendCounted(20);
    const restarted = await newRunner({ kind: 'projection', projection: new TallyProjection('tally-crash') });
    await restarted.start();
    await eventually(appliedAll(projection.name, more), { description: 'events after restart' });
    const counts = await tally(projection.name);
    expect(counts.size).toBe(await countedInLog());
    expect([...counts.entries()].filter(([, n]) => n !== 1)).toEqual([]);
  });

  it('parks an event that keeps failing and goes on with the next', async () => {
    const projection = new TallyProjection('tally-poison');
    const ids = await appendCounted(10);
    projection.failAlways.add(ids[4]);
    const runner = await newRunner({ kind: 'projection', projection });
    await runner.start();
    const others = ids.filter((id) => id !== ids[4]);
    await eventually(appliedAll(projection.name, others), { description: 'events after the poison one' });
    const counts = await tally(projection.name);
    expect(counts.has(ids[4])).toBe(false); // its failed attempts were rolled back
    const { rows } = await pool.query('SELECT event_id, attempts FROM processor_dead_letters WHERE processor = $1', [
      projection.name,
    ]);
    expect(rows).toEqual([{ event_id: ids[4], attempts: 2 }]);
  });

  it('rebuilds on request while running: reset, then replay to the same result', async () => {
    const projection = new TallyProjection('tally-rebuild');
    const ids = await appendCounted(40);
    const runner = await newRunner({ kind: 'projection', projection });
    await runner.start();
    await eventually(appliedAll(projection.name, ids), { description: 'first pass' });
    await pool.query("UPDATE tally SET applied = 99 WHERE projection = 'tally-rebuild'"); // corrupt the read model

    await Checkpoints.requestRebuild(dataSources[0].manager, projection.name);
    await eventually(
      async () => {
        const counts = await tally(projection.name);
        return ids.every((id) => counts.get(id) === 1);
      },
      { description: 'the rebuild' },
    );
    const checkpoint = await Checkpoints.read(dataSources[0].manager, projection.name);
    expect(checkpoint.rebuildRequested).toBe(false);
  });

  it('keeps a process manager going after one event fails', async () => {
    const handled: number[] = [];
    const processManager: ProcessManager = {
      name: 'pm-isolation',
      eventTypes: ['Counted'],
      handle: async (event) => {
        if (event.data.i === 2) throw new Error('saga failure');
        handled.push(event.data.i as number);
      },
    };
    const after = await store.headPosition();
    const runner = await newRunner({ kind: 'process', process: processManager });
    // Start from the current head so earlier tests' events do not count.
    await pool.query(`INSERT INTO processor_checkpoints (name, commit_position, prepare_position) VALUES ($1, $2, $3)`, [
      processManager.name,
      after!.commit.toString(),
      after!.prepare.toString(),
    ]);
    await runner.start();
    await appendCounted(5);
    await eventually(() => handled.length === 4, { description: 'the other events' });
    expect(handled).toEqual([0, 1, 3, 4]);
    const { rows } = await pool.query('SELECT count(*)::int AS n FROM processor_dead_letters WHERE processor = $1', [
      processManager.name,
    ]);
    expect(rows[0].n).toBe(1);
  });

  describe('with one lock session for the runners of a process', () => {
    const advisoryLockHolders = async () => {
      const { rows } = await pool.query<{ pid: number }>(
        `SELECT DISTINCT l.pid FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
          WHERE l.locktype = 'advisory' AND a.datname = current_database() AND a.application_name = 'lock-session-test'`,
      );
      return rows.map((r) => r.pid);
    };
    let locks: AdvisoryLockSession;

    beforeEach(() => {
      locks = new AdvisoryLockSession({ connectionString: db.url, application_name: 'lock-session-test' });
    });
    afterEach(async () => {
      await Promise.all(runners.splice(0).map((r) => r.stop()));
      await locks.close();
    });

    it('holds every runner’s lock on a single connection', async () => {
      const projections = [new TallyProjection('tally-shared-a'), new TallyProjection('tally-shared-b')];
      const shared = await Promise.all(projections.map((projection) => newRunner({ kind: 'projection', projection }, locks)));
      await Promise.all(shared.map((r) => r.start()));
      const ids = await appendCounted(20);
      for (const projection of projections) await eventually(appliedAll(projection.name, ids), { description: projection.name });
      expect(shared.every((r) => r.isActive)).toBe(true);
      expect(await advisoryLockHolders()).toHaveLength(1);

      // A runner of another process still finds the lock taken.
      const elsewhere = await newRunner({ kind: 'projection', projection: new TallyProjection('tally-shared-a') });
      await elsewhere.start();
      expect(elsewhere.isActive).toBe(false);
    });

    it('steps every runner down when the session is lost, then takes the locks again on a new one', async () => {
      const projections = [new TallyProjection('tally-lost-a'), new TallyProjection('tally-lost-b')];
      const shared = await Promise.all(projections.map((projection) => newRunner({ kind: 'projection', projection }, locks)));
      await Promise.all(shared.map((r) => r.start()));
      const [before] = await advisoryLockHolders();
      await pool.query('SELECT pg_terminate_backend($1)', [before]);

      await eventually(
        async () => {
          const holders = await advisoryLockHolders();
          return holders.length === 1 && holders[0] !== before && shared.every((r) => r.isActive);
        },
        { description: 'the locks on a new session' },
      );
      const ids = await appendCounted(10);
      for (const projection of projections) await eventually(appliedAll(projection.name, ids), { description: projection.name });
      const counts = await tally('tally-lost-a');
      expect([...counts.values()].every((n) => n === 1)).toBe(true);
    });
  });
});
