import { Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { RecordedEvent } from '../../event-store/event-store';
import { PaymentEventReceived } from '../../modules/billing/domain/payment-event';
import { BillingEvents } from '../../modules/billing/events';
import { ChargeCardPurchaseCommand } from '../../modules/purchasing/commands/charge-card-purchase/charge-card-purchase.command';
import { CompleteCardPurchaseCommand } from '../../modules/purchasing/commands/complete-card-purchase/complete-card-purchase.command';
import { FailCardPurchaseCommand } from '../../modules/purchasing/commands/fail-card-purchase/fail-card-purchase.command';
import { PurchaseMade } from '../../modules/purchasing/domain/purchase';
import { PurchasingEvents } from '../../modules/purchasing/events';
import { AsProcessManager } from '../../projections/runner/processor';
import { nothing, Reaction, Saga } from '../kit/saga';

/**
 * A card purchase from order to entitlement:
 * 1. a pending card order is charged (the request that placed it usually did
 *    already; the order id is the processor's idempotency key, so this is the
 *    same charge, made here when that process died first);
 * 2. the processor's `payment_intent.succeeded` for the order pays it and
 *    grants the entitlement, once; `payment_intent.payment_failed` fails it
 *    and releases the buyer's hold on the listing.
 */
@Injectable()
@AsProcessManager()
export class CardPurchaseSaga extends Saga {
  readonly name = 'card-purchase';
  readonly eventTypes = [PurchasingEvents.PurchaseMade, BillingEvents.PaymentEventReceived];

  constructor(commands: CommandBus) {
    super(commands);
  }

  react(event: RecordedEvent): Reaction {
    if (event.type === PurchasingEvents.PurchaseMade) {
      const { data } = event as unknown as PurchaseMade;
      if (data.fundingSource !== 'card' || data.status !== 'pending') return nothing();
      return { commands: [new ChargeCardPurchaseCommand(data.orderId)], jobs: [] };
    }
    const { data } = event as unknown as PaymentEventReceived;
    const orderId = data.metadata.orderId;
    if (!orderId) return nothing();
    if (data.eventType === 'payment_intent.succeeded')
      return { commands: [new CompleteCardPurchaseCommand(orderId, data.objectId)], jobs: [] };
    if (data.eventType === 'payment_intent.payment_failed' || data.eventType === 'payment_intent.canceled')
      return {
        commands: [new FailCardPurchaseCommand(orderId, data.objectId, data.failureMessage ?? 'The payment failed')],
        jobs: [],
      };
    return nothing();
  }
}
