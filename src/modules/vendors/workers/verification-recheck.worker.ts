import { randomUUID } from 'node:crypto';
import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { AppConfig } from '../../../config/app-config';
import { InjectConfig } from '../../../config/config.module';
import { withEventContext } from '../../../event-store/event-context';
import { Queues } from '../../../platform/queue/queues';
import { RecheckVerificationCommand } from '../commands/recheck-verification/recheck-verification.command';
import { VendorsReader } from '../read-models/vendors.reader';

const QUEUE = 'vendor-verification-recheck';

/**
 * Re-checks every verified vendor on a schedule (VERIFICATION_RECHECK_MS):
 * a TXT record that was removed, or an organization admin who was demoted,
 * loses the vendor its verification. One BullMQ job scheduler, so several
 * instances still run each round once.
 */
@Injectable()
export class VerificationRecheckWorker implements OnApplicationBootstrap {
  private readonly logger = new Logger(VerificationRecheckWorker.name);

  constructor(
    private readonly queues: Queues,
    private readonly commands: CommandBus,
    private readonly vendors: VendorsReader,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.runProcessors) return;
    // Each scheduled job has its own id: the round's lapses share it as their correlation.
    this.queues.worker(QUEUE, (job) => this.runOnce(job.id));
    this.queues.repeatEvery(QUEUE, this.config.verificationRecheckMs);
  }

  /** One round over every verified vendor; returns how many were checked. */
  async runOnce(roundId: string = randomUUID()): Promise<number> {
    // No request and no causing event here: the round itself starts the chain.
    return withEventContext({ correlationId: roundId }, async () => {
      const vendorIds = await this.vendors.verifiedVendorIds();
      for (const vendorId of vendorIds) {
        try {
          await this.commands.execute(new RecheckVerificationCommand(vendorId));
        } catch (error) {
          this.logger.warn(`verification re-check of vendor ${vendorId} failed: ${(error as Error).message}`);
        }
      }
      return vendorIds.length;
    });
  }
}
