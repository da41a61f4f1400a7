import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { Pool } from 'pg';
import { DataSource, EntityManager } from 'typeorm';
import { RecordedEvent } from '../../../src/event-store/event-store';
import { LogPosition } from '../../../src/event-store/log-position';
import { PostgresEventStore } from '../../../src/event-store/postgres/postgres-event-store';
import { Checkpoints } from '../../../src/projections/runner/checkpoints';
import { ProcessManager, Projection } from '../../../src/projections/runner/processor';
import { ProcessorRunner, RunnerOptions } from '../../../src/projections/runner/processor-runner';
import { createTestDatabase, openDataSource, openPool, TestDatabase } from '../../support/database';
import { eventually } from '../../support/eventually';

const quiet = { log: () => undefined, error: () => undefined, warn: () => undefined } as unknown as Logger;
const options: RunnerOptions = { batchSize: 100, maxAttempts: 2, retryDelayMs: 10, pollMs: 50 };

/** A gate the handler waits at, so a test can stop the runner while an event is in hand. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

describe('stopping a processor runner (shutdown)', () => {
  let db: TestDatabase;
  let pool: Pool;
  let store: PostgresEventStore;
  let dataSource: DataSource;

  beforeAll(async () => {
    db = await createTestDatabase();
    pool = openPool(db.url, 10);
    store = new PostgresEventStore(pool);
    dataSource = await openDataSource(db.url);
    await pool.query('CREATE TABLE seen (processor text, event_id uuid, PRIMARY KEY (processor, event_id))');
  });

  afterAll(async () => {
    await dataSource.destroy();
    await store.close();
    await pool.end();
    await db.drop();
  });

  /** Appends `count` events of a type only this test reads, and returns them once readers can see them. */
  const append = async (type: string, count: number): Promise<RecordedEvent[]> => {
    for (let i = 0; i < count; i++) await store.append(`stop-${randomUUID()}`, [{ type, data: { i } }], 'no_stream');
    return eventually(async () => {
      const events = (await store.readAll({ after: LogPosition.START, maxCount: 10_000 })).filter((e) => e.type === type);
      return events.length === count && events;
    });
  };

  /** Appends the events, then starts the runner just before them, so they arrive as one batch. */
  const startBefore = async (name: string, runner: ProcessorRunner, type: string): Promise<RecordedEvent[]> => {
    const head = await store.headPosition();
    const events = await append(type, 5);
    await pool.query('INSERT INTO processor_checkpoints (name, commit_position, prepare_position) VALUES ($1, $2, $3)', [
      name,
      head?.commit.toString() ?? '0',
      head?.prepare.toString() ?? '0',
    ]);
    await runner.start();
    return events;
  };

  it('a process manager finishes the event in hand, not the rest of its batch, and resumes after it', async () => {
    const type = `Stop${randomUUID().slice(0, 8)}`;
    const handled: number[] = [];
    const held = gate();
    const reached = gate();
    const processManager: ProcessManager = {
      name: 'pm-stop',
      eventTypes: [type],
      handle: async (event) => {
        if (handled.length === 0) {
          reached.open();
          await held.opened;
        }
        handled.push(event.data.i as number);
      },
    };
    const runner = new ProcessorRunner({ kind: 'process', process: processManager }, dataSource, store, quiet, options);
    const events = await startBefore(processManager.name, runner, type);
    await reached.opened;

    const stopped = runner.stop();
    held.open();
    await stopped;
    expect(handled).toEqual([0]);
    const checkpoint = await Checkpoints.read(dataSource.manager, processManager.name);
    expect(checkpoint.position.compare(events[0].position)).toBe(0);

    const restarted = new ProcessorRunner({ kind: 'process', process: processManager }, dataSource, store, quiet, options);
    await restarted.start();
    await eventually(() => handled.length === 5, { description: 'the rest of the batch after a restart' });
    await restarted.stop();
    expect(handled).toEqual([0, 1, 2, 3, 4]);
  });

  it('a projection commits the batch in hand with its checkpoint before it stops', async () => {
    const type = `Stop${randomUUID().slice(0, 8)}`;
    const held = gate();
    const reached = gate();
    let applying = 0;
    const projection: Projection = {
      name: 'projection-stop',
      eventTypes: [type],
      apply: async (event: RecordedEvent, tx: EntityManager) => {
        if (applying++ === 0) {
          reached.open();
          await held.opened;
        }
        await tx.query('INSERT INTO seen (processor, event_id) VALUES ($1, $2)', ['projection-stop', event.eventId]);
      },
      reset: async (tx: EntityManager) => void (await tx.query("DELETE FROM seen WHERE processor = 'projection-stop'")),
    };
    const runner = new ProcessorRunner({ kind: 'projection', projection }, dataSource, store, quiet, options);
    const events = await startBefore(projection.name, runner, type);
    await reached.opened;

    const stopped = runner.stop();
    held.open();
    await stopped;
    const { rows } = await pool.query("SELECT count(*)::int AS n FROM seen WHERE processor = 'projection-stop'");
    expect(rows[0].n).toBe(5);
    const checkpoint = await Checkpoints.read(dataSource.manager, projection.name);
    expect(checkpoint.position.compare(events[4].position)).toBe(0);
  });
});
