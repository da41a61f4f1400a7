import { EventStore, RecordedEvent } from '../event-store/event-store';
import { PurchasingEvents } from '../modules/purchasing/events';
import { readWholeLog } from './log-reader';
import { Progress } from './progress';

export interface PurchaseRecord {
  at: string;
  type: string;
  streamId: string;
  revision: number;
  eventId: string;
  orderId: string | null;
  listingId: string | null;
  amountCents: number | null;
  detail: Record<string, unknown>;
}

export interface PurchaseFilter {
  userId: string;
  listingId?: string;
  from?: Date;
  to?: Date;
}

const INSTALL_RECORDED = 'InstallRecorded';

/**
 * A buyer's purchases, approvals, entitlements and downloads as the log
 * recorded them, in log order. Order payments name only the order, and
 * approval decisions only the approval, so the scan remembers the buyer's
 * orders and approvals as it meets them.
 */
export async function purchaseHistory(store: EventStore, filter: PurchaseFilter, progress?: Progress): Promise<PurchaseRecord[]> {
  const orders = new Map<string, string>(); // order id -> listing id
  const approvals = new Map<string, string>(); // approval id -> listing id
  const records: PurchaseRecord[] = [];
  const keep = (event: RecordedEvent, orderId: string | null, listingId: string | null, amountCents: number | null) => {
    const at = event.metadata.occurredAt;
    if (filter.listingId && listingId !== filter.listingId) return;
    if (filter.from && Date.parse(at) < filter.from.getTime()) return;
    if (filter.to && Date.parse(at) > filter.to.getTime()) return;
    records.push({
      at,
      type: event.type,
      streamId: event.streamId,
      revision: event.revision,
      eventId: event.eventId,
      orderId,
      listingId,
      amountCents,
      detail: event.data,
    });
  };
  for await (const batch of readWholeLog(store, progress)) {
    for (const event of batch) {
      const d = event.data as Record<string, any>;
      switch (event.type) {
        case PurchasingEvents.PurchaseMade:
          if (d.userId !== filter.userId) break;
          orders.set(d.orderId, d.listingId);
          keep(event, d.orderId, d.listingId, d.amountCents);
          break;
        case PurchasingEvents.OrderCharged:
        case PurchasingEvents.OrderPaid:
        case PurchasingEvents.OrderPaymentFailed:
          if (orders.has(d.orderId)) keep(event, d.orderId, orders.get(d.orderId)!, null);
          break;
        case PurchasingEvents.EntitlementPending:
        case PurchasingEvents.EntitlementGranted:
        case PurchasingEvents.EntitlementReleased:
          if (d.userId === filter.userId) keep(event, d.orderId ?? null, d.listingId, null);
          break;
        case PurchasingEvents.PurchaseApprovalRequested:
          if (d.requesterId !== filter.userId && d.ownerId !== filter.userId) break;
          approvals.set(d.approvalId, d.terms?.listingId ?? null);
          keep(event, null, d.terms?.listingId ?? null, d.terms?.priceCents ?? null);
          break;
        case PurchasingEvents.PurchaseApprovalApproved:
        case PurchasingEvents.PurchaseApprovalDeclined:
          if (approvals.has(d.approvalId)) keep(event, d.orderId ?? null, approvals.get(d.approvalId)!, null);
          break;
        case INSTALL_RECORDED:
          if (d.userId === filter.userId) keep(event, null, d.listingId, null);
          break;
      }
    }
  }
  return records;
}
