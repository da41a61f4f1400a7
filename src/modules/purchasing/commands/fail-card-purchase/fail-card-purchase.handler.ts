import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { EventStore, StreamAppend } from '../../../../event-store/event-store';
import { expectedAt, retryOnConflict } from '../../../../event-store/fold-stream';
import { Clock } from '../../../../platform/clock/clock';
import { derivedId } from '../../../../platform/ids';
import { entitlementStreamId, orderStreamId } from '../../domain/purchase';
import { PurchasingEvents } from '../../events';
import { foldOrder, foldEntitlement } from '../purchase-streams';
import { FailCardPurchaseCommand } from './fail-card-purchase.command';

@CommandHandler(FailCardPurchaseCommand)
export class FailCardPurchaseHandler implements ICommandHandler<FailCardPurchaseCommand, void> {
  constructor(
    private readonly store: EventStore,
    private readonly clock: Clock,
  ) {}

  execute({ orderId, paymentIntentId, reason, alongside }: FailCardPurchaseCommand): Promise<void> {
    return retryOnConflict(async () => {
      const order = await foldOrder(this.store, orderId);
      if (order.state.status !== 'pending') return;
      const { userId, listingId } = order.state.made;
      const hold = await foldEntitlement(this.store, userId, listingId);
      const at = this.clock.now().toISOString();
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
      await this.store.appendAtomically([...appends, ...alongside]);
    });
  }
}
