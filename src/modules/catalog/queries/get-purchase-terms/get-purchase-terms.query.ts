import { Query } from '@nestjs/cqrs';

/** What a buyer would get and pay: decided from the listing's stream, with the names shown on receipts. */
export interface PurchaseTerms {
  listingId: string;
  releaseId: string;
  version: string;
  /** The release's archive in the blob store, which a download serves. */
  archiveSha256: string;
  vendorId: string;
  vendorSlug: string;
  vendorName: string;
  listingSlug: string;
  listingTitle: string;
  listingType: string;
  priceCents: number;
}

/**
 * The terms of buying a listing for a buyer: an unknown or draft listing, one the buyer may not see (private and
 * org-only listings), or a release that is unpublished or another listing's, is not found. Without a release, the
 * latest published one.
 */
export class GetPurchaseTermsQuery extends Query<PurchaseTerms> {
  readonly listingId: string;
  readonly releaseId?: string;
  /** Who would buy (or download): the listing's visibility is judged for them. */
  readonly buyerId: string;

  constructor(terms: { listingId: string; releaseId?: string; buyerId: string }) {
    super();
    this.listingId = terms.listingId;
    this.releaseId = terms.releaseId;
    this.buyerId = terms.buyerId;
  }
}
