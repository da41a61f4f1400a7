import { Logger } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { EventStore } from '../../../../event-store/event-store';
import { expectedAt, retryOnConflict } from '../../../../event-store/fold-stream';
import { Clock } from '../../../../platform/clock/clock';
import { derivedId, isUuid } from '../../../../platform/ids';
import { isIntentOf, topUpDecider, topUpStreamId } from '../../domain/top-up.decider';
import { walletDecider } from '../../domain/wallet.decider';
import { WalletEvents } from '../../events';
import { WalletLedger } from '../wallet-ledger';
import { SettleTopUpCommand } from './settle-top-up.command';

/**
 * Marks the top-up paid and credits its wallet in one atomic append, both at
 * the revisions read: a second event for the same intent (a redelivery, a
 * second event id) finds the top-up settled and credits nothing.
 */
@CommandHandler(SettleTopUpCommand)
export class SettleTopUpHandler implements ICommandHandler<SettleTopUpCommand, void> {
  private readonly logger = new Logger(SettleTopUpHandler.name);

  constructor(
    private readonly store: EventStore,
    private readonly ledger: WalletLedger,
    private readonly clock: Clock,
  ) {}

  async execute(command: SettleTopUpCommand): Promise<void> {
    // In the wallet's queue with its debits, so a busy wallet never starves a credit of retries.
    const owner = await this.ledger.ownerOfTopUp(command.topUpId);
    const settle = () => this.settle(command);
    return owner ? this.ledger.exclusively(owner, settle) : settle();
  }

  private settle(command: SettleTopUpCommand): Promise<void> {
    return retryOnConflict(async () => {
      const topUpId = command.topUpId && isUuid(command.topUpId) ? command.topUpId : null;
      const topUp = topUpId ? await this.ledger.foldTopUp(topUpId) : null;
      if (!topUpId || !topUp || topUp.state.status === 'none' || !isIntentOf(topUp.state, command.paymentIntentId)) {
        await this.recordUnmatched(command);
        return;
      }
      const now = this.clock.now();
      const settled = topUpDecider.decide(
        { type: 'Succeed', paymentIntentId: command.paymentIntentId, processorEventId: command.processorEventId, now },
        topUp.state,
      );
      if (settled.length === 0) return;
      const { owner, source, amountCents } = topUp.state;
      const wallet = await this.ledger.fold(owner);
      const credited = walletDecider.decide(
        { type: 'CreditTopUp', topUpId, paymentIntentId: command.paymentIntentId, source, amountCents, now },
        wallet.state,
      );
      await this.store.appendAtomically([
        { streamId: topUpStreamId(topUpId), events: settled, expected: expectedAt(topUp.revision) },
        this.ledger.appendOf(owner, wallet, credited),
      ]);
    });
  }

  private async recordUnmatched(command: SettleTopUpCommand): Promise<void> {
    this.logger.warn(`payment intent ${command.paymentIntentId} was paid but matches no top-up of ours: recorded, not credited`);
    await this.store.append(
      `unmatched-payment-${command.paymentIntentId}`,
      [
        {
          eventId: derivedId(WalletEvents.UnmatchedPaymentRecorded, command.processorEventId),
          type: WalletEvents.UnmatchedPaymentRecorded,
          data: {
            paymentIntentId: command.paymentIntentId,
            processorEventId: command.processorEventId,
            claimedTopUpId: command.topUpId,
            amountCents: command.amountCents,
            recordedAt: this.clock.now().toISOString(),
          },
        },
      ],
      'any',
    );
  }
}
