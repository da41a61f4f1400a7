import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Job } from 'bullmq';
import { AppConfig } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';
import { withEventContext } from '../../event-store/event-context';
import { ChargeSavedMethodCommand } from '../../modules/billing/commands/charge-saved-method/charge-saved-method.command';
import { FailTopUpCommand } from '../../modules/wallet/commands/fail-top-up/fail-top-up.command';
import { OpenAutoTopUpCommand } from '../../modules/wallet/commands/open-auto-top-up/open-auto-top-up.command';
import { RecordTopUpChargeCommand } from '../../modules/wallet/commands/record-top-up-charge/record-top-up-charge.command';
import { WalletOwner, walletStreamId } from '../../modules/wallet/domain/wallet-owner';
import { Queues } from '../../platform/queue/queues';

export const AUTO_TOP_UP_QUEUE = 'auto-top-up';

export interface AutoTopUpJob {
  topUpId: string;
  owner: WalletOwner;
  amountCents: number;
  causationId: string;
  correlationId: string;
}

/**
 * The auto top-up's steps, each idempotent, so a process killed anywhere
 * finishes the job when BullMQ runs it again:
 * 1. record the top-up (before the charge, so the processor's webhook always finds it);
 * 2. charge the saved card off-session, with the top-up id as the processor's
 *    idempotency key (a second run gets the same intent, never a second charge);
 * 3. record the intent, or the decline (which frees the wallet to ask again).
 * The credit itself comes with the processor's `payment_intent.succeeded`, through the top-up saga.
 */
@Injectable()
export class AutoTopUpProcess implements OnApplicationBootstrap {
  private readonly logger = new Logger(AutoTopUpProcess.name);

  constructor(
    private readonly commands: CommandBus,
    private readonly queues: Queues,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.runProcessors) return;
    this.queues.worker<AutoTopUpJob>(AUTO_TOP_UP_QUEUE, (job: Job<AutoTopUpJob>) => this.deliver(job), { concurrency: 2 });
  }

  /**
   * One delivery. When the last attempt fails too (the processor down for
   * good, the card removed), the top-up is failed, which frees the wallet to
   * ask again on its next debit rather than wait forever.
   */
  async deliver(job: Pick<Job<AutoTopUpJob>, 'data' | 'attemptsMade' | 'opts'>): Promise<void> {
    try {
      await this.run(job.data);
    } catch (error) {
      if (job.attemptsMade + 1 >= (job.opts.attempts ?? 1)) {
        const reason = `The charge could not be made: ${error instanceof Error ? error.message : String(error)}`;
        await withEventContext({ correlationId: job.data.correlationId, causationId: job.data.causationId }, () =>
          this.commands.execute(new FailTopUpCommand(job.data.topUpId, null, null, reason)),
        );
      }
      throw error;
    }
  }

  run(job: AutoTopUpJob): Promise<void> {
    return withEventContext({ correlationId: job.correlationId, causationId: job.causationId }, async () => {
      const topUp = await this.commands.execute(new OpenAutoTopUpCommand(job.topUpId, job.owner, job.amountCents));
      // Charged already (a job run again, maybe after the processor forgot its idempotency key), settled or failed:
      // a second charge would be a second payment.
      if (topUp.status !== 'requested' || topUp.paymentIntentId !== null) return;
      const intent = await this.commands.execute(
        new ChargeSavedMethodCommand(
          job.owner,
          job.amountCents,
          { topUpId: job.topUpId, walletId: walletStreamId(job.owner), purpose: 'auto_top_up' },
          'Automatic wallet top-up',
          job.topUpId,
        ),
      );
      await this.commands.execute(new RecordTopUpChargeCommand(job.topUpId, intent));
      this.logger.log(`auto top-up ${job.topUpId}: ${intent.status}`);
    });
  }
}
