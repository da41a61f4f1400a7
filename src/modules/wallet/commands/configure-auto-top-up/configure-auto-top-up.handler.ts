import { CommandHandler, ICommandHandler, QueryBus } from '@nestjs/cqrs';
import { EventStore } from '../../../../event-store/event-store';
import { retryOnConflict } from '../../../../event-store/fold-stream';
import { Clock } from '../../../../platform/clock/clock';
import { GetPaymentMethodsQuery } from '../../../billing/queries/get-payment-methods/get-payment-methods.query';
import { AutoTopUpSettings, walletDecider } from '../../domain/wallet.decider';
import { WalletLedger } from '../wallet-ledger';
import { ConfigureAutoTopUpCommand } from './configure-auto-top-up.command';

@CommandHandler(ConfigureAutoTopUpCommand)
export class ConfigureAutoTopUpHandler implements ICommandHandler<ConfigureAutoTopUpCommand, AutoTopUpSettings> {
  constructor(
    private readonly store: EventStore,
    private readonly ledger: WalletLedger,
    private readonly queries: QueryBus,
    private readonly clock: Clock,
  ) {}

  async execute({ owner, changes }: ConfigureAutoTopUpCommand): Promise<AutoTopUpSettings> {
    const { paymentMethods } = await this.queries.execute(new GetPaymentMethodsQuery(owner));
    return retryOnConflict(async () => {
      const wallet = await this.ledger.fold(owner);
      const events = walletDecider.decide(
        { type: 'ConfigureAutoTopUp', ...changes, hasPaymentMethod: paymentMethods.length > 0, now: this.clock.now() },
        wallet.state,
      );
      if (events.length > 0) {
        const append = this.ledger.appendOf(owner, wallet, events);
        await this.store.append(append.streamId, append.events, append.expected);
      }
      return events.reduce(walletDecider.evolve, wallet.state).autoTopUp;
    });
  }
}
