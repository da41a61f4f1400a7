import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import {
  BackendFactory,
  createPostgresBackend,
  IQueueBackend,
  Job,
  PostgresConnectionOptions,
  Queue,
  Worker,
  withBackend,
} from 'bullmq';
import IORedis from 'ioredis';
import { AppConfig } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';

export type JobProcessor<T> = (job: Job<T>) => Promise<unknown>;

const POSTGRES_SCHEMA = 'queues';
const PING_TIMEOUT_MS = 2_000;
const SCHEDULE_RETRY_MS = 30_000;
/**
 * ioredis waits this long for a socket to close on disconnect() before it
 * destroys it (2 s by default); a socket that had already failed never reports
 * closing, so the whole wait keeps a stopping process alive.
 */
export const REDIS_DISCONNECT_TIMEOUT_MS = 200;
/**
 * Connections per BullMQ PostgreSQL pool. Each worker owns one pool plus one
 * LISTEN session; every queue (producer) shares a single pool. BullMQ keeps its
 * LISTEN sessions outside the pools, so one connection per pool cannot deadlock.
 */
const POSTGRES_POOL_MAX = 1;
/** The longest boot waits for the PostgreSQL backends to get ready (see started()). */
const STARTED_WAIT_MS = 15_000;

/**
 * BullMQ queues and workers on the configured backend: Redis when REDIS_URL is
 * set, otherwise BullMQ's PostgreSQL backend in the app's own database.
 */
@Injectable()
export class Queues implements OnApplicationShutdown {
  private readonly queues = new Map<string, Queue>();
  private readonly workers: Worker[] = [];
  private readonly redis: IORedis | undefined;
  private readonly classes: { Queue: typeof Queue; Worker: typeof Worker };
  private readonly connection: unknown;
  /** PostgreSQL only: the backend whose one pool every queue (producer) uses. */
  private producers: IQueueBackend | undefined;
  private readonly logger = new Logger(Queues.name);
  private readonly retries = new Set<NodeJS.Timeout>();
  /** PostgreSQL backends still preparing their connection. */
  private readonly starting: Promise<unknown>[] = [];
  private closed = false;

  constructor(@InjectConfig() private readonly config: AppConfig) {
    if (config.redisUrl) {
      this.redis = new IORedis(config.redisUrl, {
        maxRetriesPerRequest: null,
        lazyConnect: true,
        connectTimeout: 2_000,
        disconnectTimeout: REDIS_DISCONNECT_TIMEOUT_MS,
      });
      this.redis.on('error', () => undefined); // reported through health; ioredis reconnects
      this.classes = { Queue, Worker: wellBehaved(Worker) };
      this.connection = this.redis;
    } else {
      const classes = withBackend(this.postgresBackends()) as unknown as { Queue: typeof Queue; Worker: typeof Worker };
      this.classes = { Queue: classes.Queue, Worker: wellBehaved(classes.Worker) };
      this.connection = {
        connectionString: config.databaseUrl,
        schema: POSTGRES_SCHEMA,
        migrate: true,
        max: POSTGRES_POOL_MAX,
        connectionTimeoutMillis: config.databasePool.connectTimeoutMs,
      };
    }
  }

  /**
   * Workers get a backend of their own (it blocks on LISTEN); queues get siblings
   * of one shared backend, so adding a queue adds no connection.
   */
  private postgresBackends(): BackendFactory<IQueueBackend, PostgresConnectionOptions> {
    return (name, opts, kind) => {
      if (kind?.blocking || kind?.withBlockingConnection) return createPostgresBackend(name, opts, kind);
      if (!this.producers) {
        this.producers = createPostgresBackend('svc-producers', opts, {});
        // Its queues do not listen to it; a dropped idle connection is replaced on next use.
        this.producers.on('error', () => undefined);
        this.starting.push(this.producers.waitUntilReady().catch(() => undefined));
      }
      return this.producers.forQueue(name);
    };
  }

  get backend(): 'redis' | 'postgres' {
    return this.redis ? 'redis' : 'postgres';
  }

  queue<T = unknown>(name: string): Queue<T> {
    let queue = this.queues.get(name);
    if (!queue) {
      queue = new this.classes.Queue(name, { connection: this.connection as never, prefix: this.config.queuePrefix });
      queue.on('error', () => undefined);
      this.queues.set(name, queue);
    }
    return queue as Queue<T>;
  }

  worker<T>(name: string, processor: JobProcessor<T>, options: { concurrency?: number } = {}): Worker<T> {
    const worker = new this.classes.Worker<T>(name, processor, {
      connection: this.connection as never,
      prefix: this.config.queuePrefix,
      concurrency: options.concurrency ?? 1,
    });
    worker.on('error', () => undefined);
    this.workers.push(worker as Worker);
    if (!this.redis) this.starting.push(worker.waitUntilReady().catch(() => undefined));
    return worker;
  }

  /**
   * Resolves once the PostgreSQL backends made so far are ready, or after
   * STARTED_WAIT_MS. Each prepares its connection once (checks or migrates its
   * schema); a connection lost meanwhile breaks that backend for good, so the
   * server waits for this before it listens.
   */
  async started(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<void>((resolve) => (timer = setTimeout(resolve, STARTED_WAIT_MS)));
    try {
      await Promise.race([Promise.all(this.starting), bound]);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Adds one job to `name` every `everyMs`, the first one interval from now; one scheduler
   * across all instances. A backend that is down is retried in the background, so boot never
   * waits on it.
   */
  repeatEvery(name: string, everyMs: number): void {
    const schedule = () =>
      this.queue(name)
        .upsertJobScheduler(
          name,
          { every: everyMs, startDate: Date.now() + everyMs },
          { name, opts: { removeOnComplete: 10, removeOnFail: 10 } },
        )
        .catch((error: Error) => {
          this.logger.warn(`could not schedule ${name}, retrying: ${error.message}`);
          if (!this.closed) this.retries.add(setTimeout(schedule, SCHEDULE_RETRY_MS).unref());
        });
    void schedule();
  }

  /** Proves the backend answers, within a short time. */
  async ping(): Promise<void> {
    const check = this.redis
      ? this.redis.status === 'wait'
        ? this.redis.connect().then(() => this.redis!.ping())
        : this.redis.ping()
      : this.queue('health').getJobCounts('waiting');
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('queue backend did not answer')), PING_TIMEOUT_MS);
    });
    try {
      await Promise.race([check, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  async onApplicationShutdown(): Promise<void> {
    this.closed = true;
    for (const retry of this.retries) clearTimeout(retry);
    await Promise.allSettled(this.workers.map((w) => w.close()));
    await Promise.allSettled([...this.queues.values()].map((q) => q.close()));
    await this.producers?.close(); // the queues above share it and leave it open
    if (this.redis && this.redis.status !== 'end') this.redis.disconnect();
  }
}

type DelayAbort = NonNullable<Parameters<Worker['delay']>[1]>;

/** How long a worker waits before fetching again after a failed fetch. */
const FETCH_RETRY_MS = 1_000;

/**
 * BullMQ's worker with two of its habits fixed, both seen when the backend
 * fails. It retries a failed fetch at once unless it recognises the error as a
 * (Redis) connection error; PostgreSQL's it does not, and a backend that failed
 * at once (its connection lost while it was being prepared) was asked again in
 * a loop that starved the event loop. And it pauses between attempts
 * (`runRetryDelay`, 15 s; 5 s in its stalled-job checker) in ways close() does
 * not cut short, so a stopping process lingered.
 */
function wellBehaved(Base: typeof Worker): typeof Worker {
  return class WellBehavedWorker extends Base {
    // BullMQ types it with a polyfill; on Node 20 it uses this global one.
    private readonly closing$ = new AbortController() as unknown as DelayAbort;

    override delay(milliseconds?: number, abort?: DelayAbort): Promise<void> {
      return super.delay(milliseconds, abort ?? this.closing$);
    }

    protected override async moveToActive(token: string, name?: string) {
      try {
        return await super.moveToActive(token, name);
      } catch (error) {
        if (!this.closing) await this.delay(FETCH_RETRY_MS);
        throw error;
      }
    }

    // Its only caller is the stalled-job checker, which waits its own interval (and stops on close) next anyway.
    protected override checkConnectionError<T>(fn: () => Promise<T>): Promise<T | undefined> {
      return super.checkConnectionError(fn, 0);
    }

    override close(force?: boolean): Promise<void> {
      this.closing$.abort();
      return super.close(force);
    }
  } as typeof Worker;
}
