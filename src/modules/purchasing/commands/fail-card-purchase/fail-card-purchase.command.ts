import { Command } from '@nestjs/cqrs';
import { StreamAppend } from '../../../../event-store/event-store';

/** A card purchase's payment failed: the order fails and the buyer's hold on the listing is released. */
export class FailCardPurchaseCommand extends Command<void> {
  constructor(
    readonly orderId: string,
    readonly paymentIntentId: string | null,
    readonly reason: string,
    /** Appends that must commit with the failure (a request's recorded answer). */
    readonly alongside: StreamAppend[] = [],
  ) {
    super();
  }
}
