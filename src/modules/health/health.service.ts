import { Inject, Injectable, Logger } from '@nestjs/common';
import { Pool } from 'pg';
import { EventStore } from '../../event-store/event-store';
import { PG_POOL } from '../../platform/database/database.module';
import { Queues } from '../../platform/queue/queues';
import { VERSION } from '../../platform/version';
import { ProcessorHealth } from '../../projections/processor-health';

export interface HealthReport {
  ok: boolean;
  version: string;
  status: 'healthy' | 'degraded';
}

const CHECK_TIMEOUT_MS = 2_000;

@Injectable()
export class HealthService {
  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    private readonly store: EventStore,
    private readonly queues: Queues,
    private readonly processors: ProcessorHealth,
  ) {}

  private readonly logger = new Logger('Health');

  private inFlight: Promise<HealthReport> | undefined;

  /**
   * Healthy only when PostgreSQL, the event store and the queue backend all
   * answer, no processor holds a dead letter, and none lags past
   * `HEALTH_MAX_LAG_EVENTS`. Concurrent callers share one round of checks, so a burst of probes
   * costs the dependencies one probe each.
   */
  check(): Promise<HealthReport> {
    this.inFlight ??= this.runChecks().finally(() => (this.inFlight = undefined));
    return this.inFlight;
  }

  private async runChecks(): Promise<HealthReport> {
    const results = await Promise.allSettled([
      withTimeout(this.pool.query('SELECT 1')),
      withTimeout(this.store.ping()),
      this.queues.ping(),
      withTimeout(this.processors.problems()).then((problems) => {
        if (problems.length > 0) throw new Error(problems.join('; '));
      }),
    ]);
    const failures = results.flatMap((r) => (r.status === 'rejected' ? [describe(r.reason)] : []));
    if (failures.length > 0) this.logger.warn(`degraded: ${failures.join('; ')}`);
    const ok = failures.length === 0;
    return { ok, version: VERSION, status: ok ? 'healthy' : 'degraded' };
  }
}

async function withTimeout<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('timed out')), CHECK_TIMEOUT_MS))),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

function describe(reason: unknown): string {
  return reason instanceof Error ? reason.message : String(reason);
}
