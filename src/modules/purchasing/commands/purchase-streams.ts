import { EventStore } from '../../../event-store/event-store';
import { foldStream } from '../../../event-store/fold-stream';
import { ApprovalEvent, ApprovalState, approvalStreamId, evolveApproval } from '../domain/approval';
import {
  EntitlementEvent,
  EntitlementState,
  entitlementStreamId,
  evolveEntitlement,
  evolveOrder,
  OrderEvent,
  OrderState,
  orderStreamId,
} from '../domain/purchase';

/** The purchasing streams as their deciders see them, with the revision to append at. */
export interface Folded<S> {
  state: S;
  revision: number;
}

export const foldOrder = (store: EventStore, orderId: string): Promise<Folded<OrderState>> =>
  foldStream<OrderState, OrderEvent>(store, orderStreamId(orderId), evolveOrder, { status: 'none' });

/** A buyer's hold on a listing: nothing, a card purchase settling, or the entitlement. */
export const foldEntitlement = (store: EventStore, userId: string, listingId: string): Promise<Folded<EntitlementState>> =>
  foldStream<EntitlementState, EntitlementEvent>(store, entitlementStreamId(userId, listingId), evolveEntitlement, {
    status: 'none',
  });

export const foldApproval = (store: EventStore, approvalId: string): Promise<Folded<ApprovalState>> =>
  foldStream<ApprovalState, ApprovalEvent>(store, approvalStreamId(approvalId), evolveApproval, { status: 'none' });
