import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { PaymentGateway, PaymentIntent } from '../../domain/payment-gateway';
import { BillingCustomers } from '../billing-customers';
import { ChargeSavedMethodCommand } from './charge-saved-method.command';

@CommandHandler(ChargeSavedMethodCommand)
export class ChargeSavedMethodHandler implements ICommandHandler<ChargeSavedMethodCommand, PaymentIntent> {
  constructor(
    private readonly customers: BillingCustomers,
    private readonly gateway: PaymentGateway,
  ) {}

  async execute(command: ChargeSavedMethodCommand): Promise<PaymentIntent> {
    const { state } = await this.customers.fold(command.owner);
    const method = state.paymentMethods[state.paymentMethods.length - 1];
    if (!state.customerId || !method)
      return {
        id: '',
        clientSecret: '',
        amountCents: command.amountCents,
        status: 'failed',
        failureMessage: 'No saved payment method',
      };
    return this.gateway.chargeOffSession({
      amountCents: command.amountCents,
      customerId: state.customerId,
      paymentMethodId: method.id,
      metadata: command.metadata,
      description: command.description,
      idempotencyKey: command.idempotencyKey,
    });
  }
}
