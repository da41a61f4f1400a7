import { LoggerService } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { EventStore, RecordedEvent, Subscription } from '../../event-store/event-store';
import { LogPosition } from '../../event-store/log-position';
import { SerialQueue } from '../../platform/concurrency/serial-queue';
import { AdvisoryLockSession } from './advisory-lock-session';
import { Checkpoints } from './checkpoints';
import { contextCausedBy, withEventContext } from '../../event-store/event-context';
import { handlesType, Processor, processorName } from './processor';

export interface RunnerOptions {
  batchSize: number;
  /** Attempts at one event before it is parked as a dead letter and skipped. */
  maxAttempts: number;
  retryDelayMs: number;
  /** How often a standby runner tries to take over, and an active one looks for a rebuild request. */
  pollMs: number;
}

export const DEFAULT_RUNNER_OPTIONS: RunnerOptions = { batchSize: 500, maxAttempts: 3, retryDelayMs: 200, pollMs: 1_000 };

/** Stops a batch whose checkpoint another runner has moved; the runner reloads and goes on. */
class CheckpointMoved extends Error {}

/**
 * Drives one processor through the log. Exactly one runner per processor is
 * active across all processes: it holds a session advisory lock, and every
 * batch also re-reads its checkpoint FOR UPDATE, so even a runner that lost its
 * lock unnoticed can never apply an event twice. The runners of one process
 * share the session that holds their locks (`locks`); without one, a runner
 * opens its own.
 */
export class ProcessorRunner {
  readonly name: string;
  private readonly handles: (type: string) => boolean;
  private holdsLock = false;
  private readonly ownsLocks: boolean;
  private readonly locks: AdvisoryLockSession;
  /** Lifecycle steps (activate, rebuild, deactivate) never overlap. */
  private readonly lifecycle = new SerialQueue();
  private subscription: Subscription | undefined;
  /** How far this runner has handled the log; ahead of `stored` while batches held nothing it handles. */
  private position = LogPosition.START;
  /** The checkpoint as this runner last read or wrote it: another value in the table means another runner moved it. */
  private stored = LogPosition.START;
  /** Batches and checkpoint flushes take turns, so only one of them writes the checkpoint at a time. */
  private readonly checkpointTurns = new SerialQueue();
  private timer: NodeJS.Timeout | undefined;
  private stopped = true;
  private readonly progressListeners = new Set<(name: string, position: LogPosition) => void>();

  constructor(
    private readonly processor: Processor,
    private readonly dataSource: DataSource,
    private readonly store: EventStore,
    private readonly logger: LoggerService,
    private readonly options: RunnerOptions = DEFAULT_RUNNER_OPTIONS,
    locks?: AdvisoryLockSession,
  ) {
    this.name = processorName(processor);
    this.handles = handlesType(processor);
    this.ownsLocks = !locks;
    this.locks = locks ?? new AdvisoryLockSession({ connectionString: connectionString(dataSource) });
  }

  get isActive(): boolean {
    return this.subscription !== undefined;
  }

  get checkpoint(): LogPosition {
    return this.position;
  }

  onProgress(listener: (name: string, position: LogPosition) => void): () => void {
    this.progressListeners.add(listener);
    return () => this.progressListeners.delete(listener);
  }

  async start(): Promise<void> {
    if (!this.stopped) return;
    this.stopped = false;
    await Checkpoints.ensure(this.dataSource.manager, this.name);
    await this.tick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.lifecycle.run(async () => {
      await this.flushCheckpoint().catch(() => undefined); // only a shorter replay on the next start is at stake
      await this.deactivate();
    });
    if (this.ownsLocks) await this.locks.close();
  }

  /** One look around: take the lock if free, honour a rebuild request, schedule the next look. */
  private tick(): Promise<void> {
    return this.lifecycle.run(async () => {
      if (this.stopped) return;
      try {
        if (!this.subscription) await this.tryActivate();
        else {
          await this.checkLockAndRebuild();
          await this.flushCheckpoint();
        }
      } catch (error) {
        this.logger.error(`processor ${this.name}: ${describe(error)}`);
        await this.deactivate();
      }
      if (!this.stopped) this.timer = setTimeout(() => void this.tick(), this.options.pollMs);
    });
  }

  private async tryActivate(): Promise<void> {
    if (!(await this.locks.tryLock(lockKey(this.name)))) return;
    this.holdsLock = true;
    const checkpoint = await Checkpoints.read(this.dataSource.manager, this.name);
    if (checkpoint.rebuildRequested) await this.reset();
    else this.position = this.stored = checkpoint.position;
    this.subscribe();
  }

  private async checkLockAndRebuild(): Promise<void> {
    // Also proves the lock session is alive; losing it releases the lock.
    await this.locks.assertHeld(lockKey(this.name));
    const checkpoint = await Checkpoints.read(this.dataSource.manager, this.name);
    if (!checkpoint.rebuildRequested) return;
    this.logger.log(`processor ${this.name}: rebuilding from the start of the log`);
    const subscription = this.subscription;
    this.subscription = undefined;
    await subscription?.stop();
    await this.reset();
    this.subscribe();
  }

  private subscribe(): void {
    this.subscription = this.store.subscribe({
      after: this.position,
      batchSize: this.options.batchSize,
      onEvents: (events) => this.handleBatch(events),
      onError: (error) => this.logger.error(`processor ${this.name}: ${describe(error)}`),
    });
  }

  private async deactivate(): Promise<void> {
    const subscription = this.subscription;
    const holdsLock = this.holdsLock;
    this.subscription = undefined;
    this.holdsLock = false;
    await subscription?.stop();
    if (holdsLock) await this.locks.unlock(lockKey(this.name)).catch(() => undefined);
  }

  private async reset(): Promise<void> {
    await this.dataSource.transaction(async (tx) => {
      await Checkpoints.lock(tx, this.name);
      if (this.processor.kind === 'projection') await this.processor.projection.reset(tx);
      await Checkpoints.reset(tx, this.name);
    });
    this.position = this.stored = LogPosition.START;
  }

  private handleBatch(delivered: RecordedEvent[]): Promise<void> {
    return this.checkpointTurns.run(async () => {
      // Stopping: the subscription is about to end, and the stored checkpoint is where the next start resumes.
      if (this.stopped) return;
      // A batch retried after a partial event-by-event pass: skip what is already applied.
      const events = delivered.filter((event) => event.position.isAfter(this.position));
      if (events.length === 0) return;
      let reached: LogPosition;
      try {
        if (!events.some((event) => this.handles(event.type))) {
          // Nothing to do: the position moves in memory only, saving a transaction per batch; the checkpoint
          // follows with the next batch handled or the next flush, and a restart merely rereads these events.
          reached = events[events.length - 1].position;
        } else {
          reached =
            this.processor.kind === 'projection'
              ? await this.applyBatch(events, events[events.length - 1].position)
              : await this.processBatch(events);
        }
      } catch (error) {
        if (error instanceof CheckpointMoved) {
          await this.restartFromStoredCheckpoint();
          return;
        }
        throw error;
      }
      this.advanced(reached);
    });
  }

  /** Stores a position that moved past batches holding nothing to handle. */
  private flushCheckpoint(): Promise<void> {
    return this.checkpointTurns.run(async () => {
      if (!this.subscription || !this.position.isAfter(this.stored)) return;
      const position = this.position;
      try {
        await this.advanceCheckpoint(this.dataSource.manager, position);
        this.stored = position;
      } catch (error) {
        if (error instanceof CheckpointMoved) return this.restartFromStoredCheckpoint();
        throw error;
      }
    });
  }

  /** The events of a batch to handle now: while stopping, only the one in hand, so a shutdown waits for one event at most. */
  private *untilStopped(events: RecordedEvent[]): Generator<RecordedEvent> {
    for (const [i, event] of events.entries()) {
      if (i > 0 && this.stopped) return;
      yield event;
    }
  }

  /**
   * The whole batch in one transaction; on a failure, event by event so only the culprit is retried.
   * Returns the position its checkpoint now holds.
   */
  private async applyBatch(events: RecordedEvent[], last: LogPosition): Promise<LogPosition> {
    if (this.processor.kind !== 'projection') return this.position;
    const projection = this.processor.projection;
    try {
      await this.dataSource.transaction(async (tx) => {
        for (const event of events) if (this.handles(event.type)) await projection.apply(event, tx);
        await this.advanceCheckpoint(tx, last);
      });
      this.stored = last;
      return last;
    } catch (error) {
      if (error instanceof CheckpointMoved) throw error;
      this.logger.warn(`processor ${this.name}: batch failed, retrying event by event: ${describe(error)}`);
    }
    for (const event of this.untilStopped(events)) {
      await this.withRetries(event, (tx) => projection.apply(event, tx));
    }
    return this.position;
  }

  /** Handles the batch's events in order, then moves the checkpoint past the last one handled and returns it. */
  private async processBatch(events: RecordedEvent[]): Promise<LogPosition> {
    if (this.processor.kind !== 'process') return this.position;
    const processManager = this.processor.process;
    let reached = this.position;
    for (const event of this.untilStopped(events)) {
      // What it appends is stamped as caused by this event, within the same correlation.
      if (this.handles(event.type)) {
        await this.withRetries(event, () => withEventContext(contextCausedBy(event), () => processManager.handle(event)));
      }
      reached = event.position;
    }
    await this.advanceCheckpoint(this.dataSource.manager, reached);
    this.stored = reached;
    return reached;
  }

  /** Handles one event, retrying; after the last attempt it is parked and the checkpoint moves past it. */
  private async withRetries(event: RecordedEvent, handle: (tx: EntityManager) => Promise<void>): Promise<void> {
    const relevant = this.handles(event.type);
    const transactional = this.processor.kind === 'projection';
    let lastError: unknown;
    for (let attempt = 1; relevant && attempt <= this.options.maxAttempts; attempt++) {
      try {
        if (transactional) {
          await this.dataSource.transaction(async (tx) => {
            await handle(tx);
            await this.advanceCheckpoint(tx, event.position);
          });
          this.position = this.stored = event.position;
        } else {
          await handle(this.dataSource.manager);
        }
        return;
      } catch (error) {
        if (error instanceof CheckpointMoved) throw error;
        lastError = error;
        if (attempt < this.options.maxAttempts) await sleep(this.options.retryDelayMs * attempt);
      }
    }
    await this.dataSource.transaction(async (tx) => {
      if (relevant) {
        this.logger.error(`processor ${this.name}: gave up on ${event.type} ${event.eventId}: ${describe(lastError)}`);
        await tx.query(
          `INSERT INTO processor_dead_letters (processor, event_id, event_type, error, attempts, stream_id, revision)
           VALUES ($1, $2, $3, $4, $5, $6, $7)
           ON CONFLICT (processor, event_id) DO UPDATE SET error = EXCLUDED.error, attempts = EXCLUDED.attempts, failed_at = now()`,
          [this.name, event.eventId, event.type, describe(lastError), this.options.maxAttempts, event.streamId, event.revision],
        );
      }
      if (transactional) await this.advanceCheckpoint(tx, event.position);
    });
    if (transactional) this.position = this.stored = event.position;
  }

  /**
   * Stores the checkpoint at `position` if it is still where this runner last left it; otherwise another runner
   * moved it, and CheckpointMoved rolls back the transaction `db` belongs to (what it applied included).
   * Checked last rather than locked first: one statement instead of two, held locked only until the commit.
   * The caller moves `stored` once that commit succeeded.
   */
  private async advanceCheckpoint(db: EntityManager, position: LogPosition): Promise<void> {
    if (!(await Checkpoints.advance(db, this.name, this.stored, position))) throw new CheckpointMoved();
  }

  private async restartFromStoredCheckpoint(): Promise<void> {
    this.logger.warn(`processor ${this.name}: checkpoint moved elsewhere; stepping down`);
    // Stopping from inside the subscription's own callback would wait for itself.
    setImmediate(() => void this.lifecycle.run(() => this.deactivate()));
  }

  private advanced(position: LogPosition): void {
    this.position = position;
    for (const listener of this.progressListeners) listener(this.name, position);
  }
}

function connectionString(dataSource: DataSource): string {
  const url = (dataSource.options as { url?: string }).url;
  if (!url) throw new Error('the processor runner needs a DataSource configured with a url');
  return url;
}

export function lockKey(name: string): string {
  return `svc-processor:${name}`;
}

/** Whether a runner in any process (this one included) holds the processor's lock. */
export async function isProcessorActive(dataSource: DataSource, name: string): Promise<boolean> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    const [{ locked }] = await runner.query('SELECT pg_try_advisory_lock(hashtext($1)) AS locked', [lockKey(name)]);
    if (locked) await runner.query('SELECT pg_advisory_unlock(hashtext($1))', [lockKey(name)]);
    return !locked;
  } finally {
    await runner.release();
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
