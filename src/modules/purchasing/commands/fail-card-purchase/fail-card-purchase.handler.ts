import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { EventStore, StreamAppend } from '../../../../event-store/event-store';
import { expectedAt, retryOnConflict } from '../../../../event-store/fold-stream';
import { Clock } from '../../../../platform/clock/clock';
import { derivedId } from '../../../../platform/ids';
import { PolicyLedger } from '../../../policies/commands/policy-ledger';
import { entitlementStreamId, orderStreamId } from '../../domain/purchase';
import { PurchasingEvents } from '../../events';
import { foldOrder, foldEntitlement } from '../purchase-streams';
import { FailCardPurchaseCommand } from './fail-card-purchase.command';

/**
 * Fails a pending card order in one atomic append at every stream's revision:
 * the order, the buyer's hold on the listing, and the spend each of the
 * order's policies recorded, given back whole. Every failure path comes here
 * (a decline answered at once, the processor's `payment_intent.payment_failed`
 * or `canceled`, the card-purchase saga), and an order that is no longer
 * pending changes nothing, so a redelivered failure gives back nothing twice.
 */
@CommandHandler(FailCardPurchaseCommand)
export class FailCardPurchaseHandler implements ICommandHandler<FailCardPurchaseCommand, void> {
  constructor(
    private readonly store: EventStore,
    private readonly policies: PolicyLedger,
    private readonly clock: Clock,
  ) {}

  execute({ orderId, paymentIntentId, reason, alongside }: FailCardPurchaseCommand): Promise<void> {
    return retryOnConflict(async () => {
      const order = await foldOrder(this.store, orderId);
      if (order.state.status !== 'pending') return;
      const { userId, listingId, policyIds } = order.state.made;
      const hold = await foldEntitlement(this.store, userId, listingId);
      const now = this.clock.now();
      const at = now.toISOString();
      const appends: StreamAppend[] = [
        {
          streamId: orderStreamId(orderId),
          events: [
            {
              eventId: derivedId(PurchasingEvents.OrderPaymentFailed, orderId),
              type: PurchasingEvents.OrderPaymentFailed,
              data: { orderId, paymentIntentId, reason, failedAt: at },
            },
          ],
          expected: expectedAt(order.revision),
        },
      ];
      if (hold.state.status === 'pending' && hold.state.orderId === orderId)
        appends.push({
          streamId: entitlementStreamId(userId, listingId),
          events: [
            {
              eventId: derivedId(PurchasingEvents.EntitlementReleased, orderId),
              type: PurchasingEvents.EntitlementReleased,
              data: { userId, listingId, orderId, releasedAt: at },
            },
          ],
          expected: expectedAt(hold.revision),
        });
      for (const policyId of policyIds) {
        const policy = await this.policies.fold(policyId);
        const released = this.policies.decidePaymentOutcome(policy, { type: 'ReleaseSpend', purchaseId: orderId, reason, now });
        appends.push(...this.policies.appendsOf(policy, released));
      }
      await this.store.appendAtomically([...appends, ...alongside]);
    });
  }
}
