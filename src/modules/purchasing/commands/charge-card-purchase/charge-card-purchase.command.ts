import { Command } from '@nestjs/cqrs';
import { StreamAppend } from '../../../../event-store/event-store';

export type CardChargeOutcome = { charged: true } | { charged: false; reason: string };

/**
 * Charges a pending card order's saved card off-session, once: the order id
 * is the processor's idempotency key, so the request that placed the order
 * and the card-purchase saga (the safety net after a crash) make one charge.
 */
export class ChargeCardPurchaseCommand extends Command<CardChargeOutcome> {
  constructor(
    readonly orderId: string,
    /** Appends to commit with the outcome (a request's recorded answer). */
    readonly alongside?: {
      charged: () => Promise<StreamAppend[]>;
      declined: (reason: string) => Promise<StreamAppend[]>;
    },
  ) {
    super();
  }
}
