import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { DuplicateEventIdError, EventStore } from '../../../../event-store/event-store';
import { retryOnConflict } from '../../../../event-store/fold-stream';
import { Clock } from '../../../../platform/clock/clock';
import { walletDecider } from '../../domain/wallet.decider';
import { WalletLedger } from '../wallet-ledger';
import { DebitWalletCommand, WalletDebit } from './debit-wallet.command';

@CommandHandler(DebitWalletCommand)
export class DebitWalletHandler implements ICommandHandler<DebitWalletCommand, WalletDebit> {
  constructor(
    private readonly store: EventStore,
    private readonly ledger: WalletLedger,
    private readonly clock: Clock,
  ) {}

  execute(command: DebitWalletCommand): Promise<WalletDebit> {
    return this.ledger.exclusively(command.owner, () => this.debit(command));
  }

  private async debit(command: DebitWalletCommand): Promise<WalletDebit> {
    try {
      return await retryOnConflict(async () => {
        const wallet = await this.ledger.fold(command.owner);
        const events = walletDecider.decide(
          {
            type: 'Debit',
            debitId: command.debitId,
            amountCents: command.amountCents,
            reason: command.reason,
            description: command.description,
            reference: command.reference,
            now: this.clock.now(),
          },
          wallet.state,
        );
        const append = this.ledger.appendOf(command.owner, wallet, events);
        const stored = await this.store.append(append.streamId, append.events, append.expected);
        // Re-appending a stored event id is a no-op that answers where it was stored: this debit happened before.
        if (stored.revision !== wallet.revision + events.length) return this.appliedBefore(command);
        return { balanceAfterCents: events.reduce(walletDecider.evolve, wallet.state).balanceCents, alreadyApplied: false };
      });
    } catch (error) {
      // The debit's event id derives from the debit id: stored elsewhere already means it happened before.
      if (!(error instanceof DuplicateEventIdError)) throw error;
      return this.appliedBefore(command);
    }
  }

  private async appliedBefore(command: DebitWalletCommand): Promise<WalletDebit> {
    const { state } = await this.ledger.fold(command.owner);
    return { balanceAfterCents: state.balanceCents, alreadyApplied: true };
  }
}
