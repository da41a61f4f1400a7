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
