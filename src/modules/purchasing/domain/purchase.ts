import { derivedId } from '../../../platform/ids';
import { PurchasingEvents } from '../events';

export type FundingSource = 'free' | 'wallet' | 'card';
export type OrderStatus = 'paid' | 'pending' | 'failed';
export type PurchaseChannel = 'api' | 'web';

export interface PurchaseMade {
  type: typeof PurchasingEvents.PurchaseMade;
  data: {
    orderId: string;
    buyer: { kind: 'user' | 'org'; id: string };
    /** The user who bought, also for org-paid purchases. */
    userId: string;
    listingId: string;
    releaseId: string;
    version: string;
    vendorId: string;
    vendorSlug: string;
    vendorName: string;
    listingSlug: string;
    listingTitle: string;
    listingType: string;
    amountCents: number;
    platformFeeCents: number;
    vendorNetCents: number;
    fundingSource: FundingSource;
    status: OrderStatus;
    paymentIntentId: string | null;
    channel: PurchaseChannel;
    /**
     * The spend policies that recorded this purchase's spend (schema version 2;
     * empty before): a card payment's outcome settles or gives back each one.
     */
    policyIds: string[];
    madeAt: string;
  };
}

export interface EntitlementGranted {
  type: typeof PurchasingEvents.EntitlementGranted;
  data: {
    entitlementId: string;
    userId: string;
    listingId: string;
    releaseId: string;
    orderId: string;
    vendorSlug: string;
    listingSlug: string;
    listingTitle: string;
    version: string;
    grantedAt: string;
  };
}

export const orderStreamId = (orderId: string): string => `order-${orderId}`;
export const entitlementStreamId = (userId: string, listingId: string): string => `entitlement-${userId}-${listingId}`;
/** One entitlement per buyer and listing, so its id is theirs. */
export const entitlementIdFor = (userId: string, listingId: string): string =>
  derivedId(PurchasingEvents.EntitlementGranted, userId, listingId);

/**
 * The platform's share of a sale in basis points (PLATFORM_FEE_BPS), rounded
 * down to a whole cent: the vendor never gets less than its exact share.
 */
export function splitSale(amountCents: number, feeBps: number): { platformFeeCents: number; vendorNetCents: number } {
  const platformFeeCents = Math.floor((amountCents * feeBps) / 10_000);
  return { platformFeeCents, vendorNetCents: amountCents - platformFeeCents };
}

export type OrderEvent =
  | PurchaseMade
  | { type: typeof PurchasingEvents.OrderCharged; data: { orderId: string; paymentIntentId: string; chargedAt: string } }
  | { type: typeof PurchasingEvents.OrderPaid; data: { orderId: string; paymentIntentId: string; paidAt: string } }
  | {
      type: typeof PurchasingEvents.OrderPaymentFailed;
      data: { orderId: string; paymentIntentId: string | null; reason: string; failedAt: string };
    };

export type EntitlementEvent =
  | {
      type: typeof PurchasingEvents.EntitlementPending;
      data: { userId: string; listingId: string; orderId: string; heldAt: string };
    }
  | EntitlementGranted
  | {
      type: typeof PurchasingEvents.EntitlementReleased;
      data: { userId: string; listingId: string; orderId: string; releasedAt: string };
    };

/** An order as its stream tells it. */
export type OrderState = { status: 'none' } | { status: OrderStatus; made: PurchaseMade['data']; paymentIntentId: string | null };

export function evolveOrder(state: OrderState, event: OrderEvent): OrderState {
  switch (event.type) {
    case PurchasingEvents.PurchaseMade:
      return { status: event.data.status, made: event.data, paymentIntentId: event.data.paymentIntentId };
    case PurchasingEvents.OrderCharged:
      return state.status === 'none' ? state : { ...state, paymentIntentId: event.data.paymentIntentId };
    case PurchasingEvents.OrderPaid:
      return state.status === 'none' ? state : { ...state, status: 'paid', paymentIntentId: event.data.paymentIntentId };
    case PurchasingEvents.OrderPaymentFailed:
      return state.status === 'none' ? state : { ...state, status: 'failed' };
  }
}

/** A buyer's hold on a listing: nothing, a card purchase settling, or the entitlement. */
export type EntitlementState =
  { status: 'none' } | { status: 'pending'; orderId: string } | { status: 'granted'; entitlementId: string };

export function evolveEntitlement(state: EntitlementState, event: EntitlementEvent): EntitlementState {
  switch (event.type) {
    case PurchasingEvents.EntitlementPending:
      return { status: 'pending', orderId: event.data.orderId };
    case PurchasingEvents.EntitlementGranted:
      return { status: 'granted', entitlementId: event.data.entitlementId };
    case PurchasingEvents.EntitlementReleased:
      return state.status === 'pending' && state.orderId === event.data.orderId ? { status: 'none' } : state;
  }
}
