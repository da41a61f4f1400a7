import { Logger } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { EventStore } from '../../../../event-store/event-store';
import { decideOnStream } from '../../../../event-store/fold-stream';
import { Clock } from '../../../../platform/clock/clock';
import { billingCustomerDecider, billingCustomerStreamId } from '../../domain/billing-customer.decider';
import { RemovePaymentMethodCommand } from './remove-payment-method.command';

@CommandHandler(RemovePaymentMethodCommand)
export class RemovePaymentMethodHandler implements ICommandHandler<RemovePaymentMethodCommand, void> {
  private readonly logger = new Logger(RemovePaymentMethodHandler.name);

  constructor(
    private readonly store: EventStore,
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {}

  async execute({ paymentMethodId }: RemovePaymentMethodCommand): Promise<void> {
    // The processor's event names the card only; which owner saved it is this module's own read model's to say.
    const owners: { owner_kind: string; owner_id: string }[] = await this.dataSource.query(
      'SELECT owner_kind, owner_id FROM billing_payment_methods WHERE payment_method_id = $1',
      [paymentMethodId],
    );
    if (owners.length === 0) this.logger.log(`payment method ${paymentMethodId} was detached; no owner of ours lists it`);
    for (const owner of owners)
      await decideOnStream(this.store, billingCustomerStreamId(owner.owner_kind, owner.owner_id), billingCustomerDecider, {
        type: 'RemovePaymentMethod',
        paymentMethodId,
        now: this.clock.now(),
      });
  }
}
