import { CallHandler, ExecutionContext, Injectable, Logger, NestInterceptor } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { from, lastValueFrom, Observable } from 'rxjs';
import { AppConfig } from '../config/app-config';
import { InjectConfig } from '../config/config.module';
import { LogPosition } from '../event-store/log-position';
import { WakeSignal } from '../event-store/wake-signal';
import { trackWritesSettled, writesSoFar } from '../event-store/write-tracker';
import { ProcessorsService } from './processors.service';
import { isProcessorActive } from './runner/processor-runner';

/** Waits, bounded, until every projection has passed a log position. */
@Injectable()
export class ProjectionWaiter {
  private readonly logger = new Logger('ReadYourWrites');
  private readonly progress = new WakeSignal();

  constructor(
    private readonly processors: ProcessorsService,
    private readonly dataSource: DataSource,
    @InjectConfig() private readonly config: AppConfig,
  ) {
    for (const runner of processors.runners) runner.onProgress(() => this.progress.notify());
  }

  /**
   * Resolves true once the projections reading any of `eventTypes` (all of them
   * when omitted) have passed `position`; false if the time ran out.
   */
  async waitFor(
    position: LogPosition,
    eventTypes?: Iterable<string>,
    timeoutMs = this.config.readYourWritesTimeoutMs,
  ): Promise<boolean> {
    const names = eventTypes ? this.processors.projectionsReading(eventTypes) : this.processors.projectionNames;
    return this.waitForProcessors(names, position, timeoutMs);
  }

  /**
   * For work done outside the server (operator commands): waits for the
   * projections reading these types that a running server is applying. With
   * no server running there is nobody to wait for, and it returns at once.
   */
  async waitForRunningProjections(position: LogPosition, eventTypes: Iterable<string>): Promise<boolean> {
    const names = this.processors.projectionsReading(eventTypes);
    const active: string[] = [];
    for (const name of names) if (await isProcessorActive(this.dataSource, name)) active.push(name);
    return this.waitForProcessors(active, position);
  }

  /** Resolves true once the named processors have passed `position`; false if the time ran out. */
  async waitForProcessors(
    names: string[],
    position: LogPosition,
    timeoutMs = this.config.readYourWritesTimeoutMs,
  ): Promise<boolean> {
    if (names.length === 0) return true;
    const deadline = Date.now() + timeoutMs;
    let pollMs = 5;
    for (;;) {
      if (await this.allPassed(names, position)) return true;
      const left = deadline - Date.now();
      if (left <= 0) {
        this.logger.warn(`projections did not reach ${position} within ${timeoutMs} ms`);
        return false;
      }
      // Local runners wake us at once; runners in other processes are polled.
      await this.progress.wait(Math.min(pollMs, left));
      pollMs = Math.min(pollMs * 2, 100);
    }
  }

  /**
   * Waits for the projections to apply what this request has appended so far;
   * with `includeSagas`, also for the process managers it set off to finish their work.
   */
  async catchUpWithThisRequest(options: { includeSagas?: boolean } = {}): Promise<void> {
    const { lastPosition, eventTypes } = writesSoFar();
    if (!lastPosition) return;
    const names = this.processors.projectionsReading(eventTypes);
    if (options.includeSagas) names.push(...this.processors.sagasReading(eventTypes));
    await this.waitForProcessors(names, lastPosition);
  }

  /**
   * A runner active in this process is asked in memory: its checkpoint is stored lazily past batches it had
   * nothing to apply. Runners elsewhere are judged by their stored checkpoints.
   */
  private async allPassed(names: string[], position: LogPosition): Promise<boolean> {
    const elsewhere: string[] = [];
    for (const name of names) {
      const local = this.processors.runners.find((runner) => runner.name === name && runner.isActive);
      if (!local) elsewhere.push(name);
      else if (local.checkpoint.compare(position) < 0) return false;
    }
    if (elsewhere.length === 0) return true;
    const [{ passed }] = await this.dataSource.query(
      `SELECT count(*)::int AS passed FROM processor_checkpoints
        WHERE name = ANY($1) AND (commit_position, prepare_position) >= ($2::numeric, $3::bigint)`,
      [elsewhere, position.commit.toString(), position.prepare.toString()],
    );
    return passed === elsewhere.length;
  }
}

/**
 * Read your writes: a request that appended events answers only after the
 * projections reading those event types have applied them, so the caller's
 * next GET sees its change. The wait is bounded: past it the request answers
 * anyway and a warning is logged (the change is stored; only the view lags).
 */
@Injectable()
export class ReadYourWritesInterceptor implements NestInterceptor {
  constructor(private readonly waiter: ProjectionWaiter) {}

  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return from(
      (async () => {
        const { result, failure, lastPosition, eventTypes } = await trackWritesSettled(() =>
          lastValueFrom(next.handle(), { defaultValue: undefined }),
        );
        if (lastPosition) await this.waiter.waitFor(lastPosition, eventTypes);
        if (failure) throw failure.error;
        return result;
      })(),
    );
  }
}
