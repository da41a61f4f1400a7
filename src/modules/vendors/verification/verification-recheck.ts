import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '../../../config/app-config';
import { InjectConfig } from '../../../config/config.module';
import { Queues } from '../../../platform/queue/queues';
import { VerificationService } from '../commands/verification.service';
import { VendorDirectory } from '../queries/vendor-directory';

const QUEUE = 'vendor-verification-recheck';
const SCHEDULE_RETRY_MS = 30_000;

/**
 * Re-checks every verified vendor on a schedule (VERIFICATION_RECHECK_MS):
 * a TXT record that was removed, or an organization admin who was demoted,
 * loses the vendor its verification. One BullMQ job scheduler, so several
 * instances still run each round once.
 */
@Injectable()
export class VerificationRecheck implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(VerificationRecheck.name);
  private retry: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly queues: Queues,
    private readonly verification: VerificationService,
    private readonly directory: VendorDirectory,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.runProcessors) return;
    this.queues.worker(QUEUE, () => this.runOnce());
    // A queue backend that is down at boot must not stop the server; keep trying in the background.
    void this.schedule();
  }

  onApplicationShutdown(): void {
    this.stopped = true;
    clearTimeout(this.retry);
  }

  private async schedule(): Promise<void> {
    try {
      await this.queues.queue(QUEUE).upsertJobScheduler(
        'recheck-all',
        // The first round comes one interval after start, not at boot.
        { every: this.config.verificationRecheckMs, startDate: Date.now() + this.config.verificationRecheckMs },
        { name: 'recheck-all', opts: { removeOnComplete: 100, removeOnFail: 100 } },
      );
    } catch (error) {
      this.logger.warn(`could not schedule verification re-checks, retrying: ${(error as Error).message}`);
      if (!this.stopped) this.retry = setTimeout(() => void this.schedule(), SCHEDULE_RETRY_MS);
    }
  }

  /** One round over every verified vendor; returns how many were checked. */
  async runOnce(): Promise<number> {
    const vendorIds = await this.directory.verifiedVendorIds();
    for (const vendorId of vendorIds) {
      try {
        await this.verification.recheck(vendorId);
      } catch (error) {
        this.logger.warn(`verification re-check of vendor ${vendorId} failed: ${(error as Error).message}`);
      }
    }
    return vendorIds.length;
  }
}
