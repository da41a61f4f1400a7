import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import type { Job } from 'bullmq';
import { AppConfig } from '../../../config/app-config';
import { InjectConfig } from '../../../config/config.module';
import { withEventContext } from '../../../event-store/event-context';
import { EventStore } from '../../../event-store/event-store';
import { decideOnStream } from '../../../event-store/fold-stream';
import { BlobStore } from '../../../platform/blob-store/blob-store';
import { Clock } from '../../../platform/clock/clock';
import { Queues } from '../../../platform/queue/queues';
import { listingDecider, listingStreamId, ScanOutcome } from '../domain/listing.decider';
import { scanArchive } from './archive-scanner';
import { RELEASE_SCAN_QUEUE, ReleaseScanJob } from './release-scan.jobs';

/**
 * Runs the scans and records each result on the listing. Fail-closed: a scan
 * that errors records `failed`; only an error recording the result is retried.
 */
@Injectable()
export class ReleaseScanWorker implements OnApplicationBootstrap {
  private readonly logger = new Logger(ReleaseScanWorker.name);

  constructor(
    private readonly queues: Queues,
    private readonly blobs: BlobStore,
    private readonly store: EventStore,
    private readonly clock: Clock,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.runProcessors) return;
    this.queues.worker<ReleaseScanJob>(RELEASE_SCAN_QUEUE, (job) => this.run(job), { concurrency: 2 });
  }

  /** One delivery of a job; what it records names the upload that asked for it as its cause. */
  run(job: Pick<Job<ReleaseScanJob>, 'data' | 'attemptsMade' | 'opts'>): Promise<ScanOutcome> {
    const { causationId, correlationId } = job.data;
    const work = async () => {
      try {
        return await this.scan(job.data);
      } catch (error) {
        // Fail closed: when the last attempt cannot record a result, record a failure instead of leaving it pending.
        if (job.attemptsMade + 1 >= (job.opts.attempts ?? 1)) await this.recordScannerError(job.data, error);
        throw error;
      }
    };
    // Jobs queued before causes were carried have none to record.
    return causationId && correlationId ? withEventContext({ correlationId, causationId }, work) : work();
  }

  async scan(job: ReleaseScanJob): Promise<ScanOutcome> {
    const outcome = (await this.blobs.exists(job.archiveSha256))
      ? toOutcome(await scanArchive(this.blobs.pathOf(job.archiveSha256), { signed: job.signed }))
      : scannerFailure(`the archive ${job.archiveSha256} is missing from the blob store`);
    await this.record(job, outcome);
    this.logger.log(`release ${job.releaseId} scanned: ${outcome.status}`);
    return outcome;
  }

  private async recordScannerError(job: ReleaseScanJob, error: unknown): Promise<void> {
    const message = error instanceof Error ? error.message : String(error);
    this.logger.error(`release ${job.releaseId} could not be scanned: ${message}`);
    await this.record(job, scannerFailure('the scan could not be completed'));
  }

  private async record(job: ReleaseScanJob, outcome: ScanOutcome): Promise<void> {
    await decideOnStream(this.store, listingStreamId(job.listingId), listingDecider, {
      type: 'RecordScan',
      releaseId: job.releaseId,
      outcome,
      now: this.clock.now(),
    });
  }
}

function toOutcome(report: Awaited<ReturnType<typeof scanArchive>>): ScanOutcome {
  const { status, label, qualityScore, findings, checks, promptGuard } = report;
  return { status, label, qualityScore, findings, checks, promptGuard };
}

function scannerFailure(reason: string): ScanOutcome {
  return {
    status: 'failed',
    label: 'unsafe',
    qualityScore: 0,
    findings: [{ check: 'scanner', severity: 'failure', message: `Scanner error: ${reason}` }],
    checks: [{ check: 'scanner', ok: false }],
    promptGuard: { ran: false, verified: false, perFile: [] },
  };
}
