import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { EventStore } from '../../../../event-store/event-store';
import { decideOnStream } from '../../../../event-store/fold-stream';
import { Clock } from '../../../../platform/clock/clock';
import { billingCustomerDecider, billingCustomerStreamId } from '../../domain/billing-customer.decider';
import { PaymentGateway } from '../../domain/payment-gateway';
import { SavePaymentMethodCommand } from './save-payment-method.command';

@CommandHandler(SavePaymentMethodCommand)
export class SavePaymentMethodHandler implements ICommandHandler<SavePaymentMethodCommand, void> {
  constructor(
    private readonly store: EventStore,
    private readonly gateway: PaymentGateway,
    private readonly clock: Clock,
  ) {}

  async execute({ owner, setupIntentId, paymentMethodId }: SavePaymentMethodCommand): Promise<void> {
    // Only brand, last four digits and expiry come back: nothing more of a card is ever stored.
    const method = await this.gateway.retrievePaymentMethod(paymentMethodId);
    await decideOnStream(this.store, billingCustomerStreamId(owner.kind, owner.id), billingCustomerDecider, {
      type: 'SavePaymentMethod',
      setupIntentId,
      method,
      now: this.clock.now(),
    });
  }
}
