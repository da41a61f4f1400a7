import { Logger } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { EventStore, StreamAppend } from '../../../../event-store/event-store';
import { expectedAt, retryOnConflict } from '../../../../event-store/fold-stream';
import { Clock } from '../../../../platform/clock/clock';
import { derivedId } from '../../../../platform/ids';
import { PolicyLedger } from '../../../policies/commands/policy-ledger';
import { entitlementIdFor, entitlementStreamId, orderStreamId } from '../../domain/purchase';
import { PurchasingEvents } from '../../events';
import { foldOrder, foldEntitlement } from '../purchase-streams';
import { CompleteCardPurchaseCommand } from './complete-card-purchase.command';

/**
 * Pays the order, grants the entitlement and settles the provisional spend of
 * each of the order's policies in one atomic append at every stream's
 * revision: a redelivered or second event for the intent finds the order paid
 * and changes nothing. A payment that arrives after the order failed is still
 * recorded as paid (the money came), the listing granted, and the spend that
 * the failure gave back counted again.
 */
@CommandHandler(CompleteCardPurchaseCommand)
export class CompleteCardPurchaseHandler implements ICommandHandler<CompleteCardPurchaseCommand, void> {
  private readonly logger = new Logger(CompleteCardPurchaseHandler.name);

  constructor(
    private readonly store: EventStore,
    private readonly policies: PolicyLedger,
    private readonly clock: Clock,
  ) {}

  execute({ orderId, paymentIntentId }: CompleteCardPurchaseCommand): Promise<void> {
    return retryOnConflict(async () => {
      const order = await foldOrder(this.store, orderId);
      if (order.state.status === 'none') {
        this.logger.warn(`payment intent ${paymentIntentId} names order ${orderId}, which does not exist: not granted`);
        return;
      }
      if (order.state.status === 'paid') return;
      const made = order.state.made;
      const hold = await foldEntitlement(this.store, made.userId, made.listingId);
      const now = this.clock.now();
      const at = now.toISOString();
      const appends: StreamAppend[] = [
        {
          streamId: orderStreamId(orderId),
          events: [
            {
              eventId: derivedId(PurchasingEvents.OrderPaid, orderId),
              type: PurchasingEvents.OrderPaid,
              data: { orderId, paymentIntentId, paidAt: at },
            },
          ],
          expected: expectedAt(order.revision),
        },
      ];
      if (hold.state.status !== 'granted')
        appends.push({
          streamId: entitlementStreamId(made.userId, made.listingId),
          events: [
            {
              eventId: derivedId(PurchasingEvents.EntitlementGranted, orderId),
              type: PurchasingEvents.EntitlementGranted,
              data: {
                entitlementId: entitlementIdFor(made.userId, made.listingId),
                userId: made.userId,
                listingId: made.listingId,
                releaseId: made.releaseId,
                orderId,
                vendorSlug: made.vendorSlug,
                listingSlug: made.listingSlug,
                listingTitle: made.listingTitle,
                version: made.version,
                grantedAt: at,
              },
            },
          ],
          expected: expectedAt(hold.revision),
        });
      const failedBefore = order.state.status === 'failed';
      for (const policyId of made.policyIds) {
        const policy = await this.policies.fold(policyId);
        const outcome = this.policies.decidePaymentOutcome(
          policy,
          failedBefore
            ? { type: 'RecountSpend', purchaseId: orderId, amountCents: made.amountCents, now }
            : { type: 'SettleSpend', purchaseId: orderId, now },
        );
        appends.push(...this.policies.appendsOf(policy, outcome));
      }
      await this.store.appendAtomically(appends);
    });
  }
}
