import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { AppConfig } from '../../../config/app-config';
import { InjectConfig } from '../../../config/config.module';
import { EventStore, RecordedEvent } from '../../../event-store/event-store';
import { decideOnStream } from '../../../event-store/fold-stream';
import { BlobStore } from '../../../platform/blob-store/blob-store';
import { Clock } from '../../../platform/clock/clock';
import { Queues } from '../../../platform/queue/queues';
import { AsProcessManager, ProcessManager } from '../../../projections/runner/processor';
import { listingDecider, ListingEvent, listingStreamId, ScanOutcome } from '../domain/listing.decider';
import { scanArchive } from './archive-scanner';

export const RELEASE_SCAN_QUEUE = 'release-scan';

export interface ReleaseScanJob {
  listingId: string;
  releaseId: string;
  archiveSha256: string;
  signed: boolean;
}

/** Every uploaded release gets a scan job; the job id is the event id, so a redelivered event never queues twice. */
@Injectable()
@AsProcessManager()
export class ReleaseScanSaga implements ProcessManager {
  readonly name = 'release-scan';
  readonly eventTypes = ['ReleaseUploaded'];

  constructor(private readonly queues: Queues) {}

  async handle(event: RecordedEvent): Promise<void> {
    const { data } = event as unknown as Extract<ListingEvent, { type: 'ReleaseUploaded' }>;
    const job: ReleaseScanJob = {
      listingId: data.listingId,
      releaseId: data.releaseId,
      archiveSha256: data.archiveSha256,
      signed: data.signedWith !== null,
    };
    await this.queues.queue<ReleaseScanJob>(RELEASE_SCAN_QUEUE).add('scan', job, {
      jobId: event.eventId,
      attempts: 5,
      backoff: { type: 'exponential', delay: 1_000 },
      removeOnComplete: 1_000,
      removeOnFail: 1_000,
    });
  }
}

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
    this.queues.worker<ReleaseScanJob>(
      RELEASE_SCAN_QUEUE,
      async (job) => {
        try {
          return await this.scan(job.data);
        } catch (error) {
          // Fail closed: when the last attempt cannot record a result, record a failure instead of leaving it pending.
          if (job.attemptsMade + 1 >= (job.opts.attempts ?? 1)) await this.recordScannerError(job.data, error);
          throw error;
        }
      },
      { concurrency: 2 },
    );
  }

  private async recordScannerError(job: ReleaseScanJob, error: unknown): Promise<void> {
    const message = error instanceof Error ? error.message : String(error);
    this.logger.error(`release ${job.releaseId} could not be scanned: ${message}`);
    await decideOnStream(this.store, listingStreamId(job.listingId), listingDecider, {
      type: 'RecordScan',
      releaseId: job.releaseId,
      outcome: scannerFailure('the scan could not be completed'),
      now: this.clock.now(),
    });
  }

  async scan(job: ReleaseScanJob): Promise<ScanOutcome> {
    const outcome = (await this.blobs.exists(job.archiveSha256))
      ? toOutcome(await scanArchive(this.blobs.pathOf(job.archiveSha256), { signed: job.signed }))
      : scannerFailure(`the archive ${job.archiveSha256} is missing from the blob store`);
    await decideOnStream(this.store, listingStreamId(job.listingId), listingDecider, {
      type: 'RecordScan',
      releaseId: job.releaseId,
      outcome,
      now: this.clock.now(),
    });
    this.logger.log(`release ${job.releaseId} scanned: ${outcome.status}`);
    return outcome;
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
