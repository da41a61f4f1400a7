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
 * Connections per BullMQ PostgreSQL pool. Each worker owns one pool plus one
 * LISTEN session; every queue (producer) shares a single pool. BullMQ keeps its
 * LISTEN sessions outside the pools, so one connection per pool cannot deadlock.
 */
const POSTGRES_POOL_MAX = 1;

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
  private closed = false;

  constructor(@InjectConfig() private readonly config: AppConfig) {
    if (config.redisUrl) {
      this.redis = new IORedis(config.redisUrl, { maxRetriesPerRequest: null, lazyConnect: true, connectTimeout: 2_000 });
      this.redis.on('error', () => undefined); // reported through health; ioredis reconnects
      this.classes = { Queue, Worker: closable(Worker) };
      this.connection = this.redis;
    } else {
      const classes = withBackend(this.postgresBackends()) as unknown as { Queue: typeof Queue; Worker: typeof Worker };
      this.classes = { Queue: classes.Queue, Worker: closable(classes.Worker) };
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
    return worker;
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

/**
 * A worker whose backend is unreachable waits `runRetryDelay` (15 s) between
 * attempts, and close() does not cut that wait short, so the process lingers.
 * Here every such wait ends when the worker closes.
 */
type DelayAbort = NonNullable<Parameters<Worker['delay']>[1]>;

function closable(Base: typeof Worker): typeof Worker {
  return class ClosableWorker extends Base {
    // BullMQ types it with a polyfill; on Node 20 it uses this global one.
    private readonly closing$ = new AbortController() as unknown as DelayAbort;

    override delay(milliseconds?: number, abort?: DelayAbort): Promise<void> {
      return super.delay(milliseconds, abort ?? this.closing$);
    }

    override close(force?: boolean): Promise<void> {
      this.closing$.abort();
      return super.close(force);
    }
  } as typeof Worker;
}
