import { Command } from '@nestjs/cqrs';
import { PaymentIntent } from '../../../billing/domain/payment-gateway';

/** The processor's answer to an auto top-up's charge: the intent to settle later, or a decline. */
export class RecordTopUpChargeCommand extends Command<void> {
  constructor(
    readonly topUpId: string,
    readonly intent: PaymentIntent,
  ) {
    super();
  }
}
