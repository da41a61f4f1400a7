import { Command } from '@nestjs/cqrs';

/** The processor confirmed a card purchase's payment: the order is paid and the entitlement granted, once. */
export class CompleteCardPurchaseCommand extends Command<void> {
  constructor(
    readonly orderId: string,
    readonly paymentIntentId: string,
  ) {
    super();
  }
}
