/** Row mappers shared by the purchasing queries: one place knows the columns. */
export interface EntitlementView {
  id: string;
  listingId: string;
  releaseId: string;
  vendorSlug: string;
  listingSlug: string;
  listingTitle: string;
  version: string;
  grantedAt: string;
}

export interface OrderView {
  id: string;
  listingId: string;
  releaseId: string;
  amountCents: number;
  status: string;
  fundingSource: string;
  createdAt: string;
  vendorSlug: string;
  vendorName: string;
  listingSlug: string;
  listingTitle: string;
  version: string;
}

export const ENTITLEMENT_COLUMNS = 'id, listing_id, release_id, vendor_slug, listing_slug, listing_title, version, granted_at';
export const ORDER_COLUMNS = `id, listing_id, release_id, amount_cents, status, funding_source, created_at, vendor_slug, vendor_name,
  listing_slug, listing_title, version`;

export function entitlementOf(row: Record<string, unknown>): EntitlementView {
  return {
    id: row.id as string,
    listingId: row.listing_id as string,
    releaseId: row.release_id as string,
    vendorSlug: row.vendor_slug as string,
    listingSlug: row.listing_slug as string,
    listingTitle: row.listing_title as string,
    version: row.version as string,
    grantedAt: new Date(row.granted_at as string).toISOString(),
  };
}

export function orderOf(row: Record<string, unknown>): OrderView {
  return {
    id: row.id as string,
    listingId: row.listing_id as string,
    releaseId: row.release_id as string,
    amountCents: Number(row.amount_cents),
    status: row.status as string,
    fundingSource: row.funding_source as string,
    createdAt: new Date(row.created_at as string).toISOString(),
    vendorSlug: row.vendor_slug as string,
    vendorName: row.vendor_name as string,
    listingSlug: row.listing_slug as string,
    listingTitle: row.listing_title as string,
    version: row.version as string,
  };
}
