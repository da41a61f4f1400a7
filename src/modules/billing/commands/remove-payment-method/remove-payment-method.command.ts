import { Command } from '@nestjs/cqrs';

/** The processor detached a card (its owner removed it in the portal, say): stop listing and charging it. */
export class RemovePaymentMethodCommand extends Command<void> {
  constructor(readonly paymentMethodId: string) {
    super();
  }
}
