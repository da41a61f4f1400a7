import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { AppConfig } from '../../../config/app-config';
import { InjectConfig } from '../../../config/config.module';
import { Queues } from '../../../platform/queue/queues';
import { VerificationService } from '../commands/verification.service';
import { VendorDirectory } from '../queries/vendor-directory';

const QUEUE = 'vendor-verification-recheck';

/**
 * Re-checks every verified vendor on a schedule (VERIFICATION_RECHECK_MS):
 * a TXT record that was removed, or an organization admin who was demoted,
 * loses the vendor its verification. One BullMQ job scheduler, so several
 * instances still run each round once.
 */
@Injectable()
export class VerificationRecheck implements OnApplicationBootstrap {
  private readonly logger = new Logger(VerificationRecheck.name);

  constructor(
    private readonly queues: Queues,
    private readonly verification: VerificationService,
    private readonly directory: VendorDirectory,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.runProcessors) return;
    this.queues.worker(QUEUE, () => this.runOnce());
    this.queues.repeatEvery(QUEUE, this.config.verificationRecheckMs);
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
