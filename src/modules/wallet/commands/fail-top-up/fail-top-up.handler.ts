import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { EventStore, StreamAppend } from '../../../../event-store/event-store';
import { expectedAt, retryOnConflict } from '../../../../event-store/fold-stream';
import { Clock } from '../../../../platform/clock/clock';
import { isUuid } from '../../../../platform/ids';
import { topUpDecider, topUpStreamId } from '../../domain/top-up.decider';
import { walletDecider } from '../../domain/wallet.decider';
import { WalletLedger } from '../wallet-ledger';
import { FailTopUpCommand } from './fail-top-up.command';

/**
 * Records the failure; a failed auto top-up also clears the wallet's
 * in-flight mark, so the next debit below the threshold may try again.
 */
@CommandHandler(FailTopUpCommand)
export class FailTopUpHandler implements ICommandHandler<FailTopUpCommand, void> {
  constructor(
    private readonly store: EventStore,
    private readonly ledger: WalletLedger,
    private readonly clock: Clock,
  ) {}

  async execute(command: FailTopUpCommand): Promise<void> {
    const { topUpId } = command;
    if (!topUpId || !isUuid(topUpId)) return; // not ours: nothing was promised
    const owner = await this.ledger.ownerOfTopUp(topUpId);
    const fail = () => this.fail(command, topUpId);
    return owner ? this.ledger.exclusively(owner, fail) : fail();
  }

  private fail(command: FailTopUpCommand, topUpId: string): Promise<void> {
    return retryOnConflict(async () => {
      const topUp = await this.ledger.foldTopUp(topUpId);
      const now = this.clock.now();
      const failed = topUpDecider.decide(
        {
          type: 'Fail',
          paymentIntentId: command.paymentIntentId,
          processorEventId: command.processorEventId,
          reason: command.reason,
          now,
        },
        topUp.state,
      );
      if (failed.length === 0 || topUp.state.status === 'none') return;
      const appends: StreamAppend[] = [
        { streamId: topUpStreamId(topUpId), events: failed, expected: expectedAt(topUp.revision) },
      ];
      if (topUp.state.source === 'auto_top_up') {
        const wallet = await this.ledger.fold(topUp.state.owner);
        const cleared = walletDecider.decide({ type: 'FailAutoTopUp', topUpId, reason: command.reason, now }, wallet.state);
        if (cleared.length > 0) appends.push(this.ledger.appendOf(topUp.state.owner, wallet, cleared));
      }
      await this.store.appendAtomically(appends);
    });
  }
}
