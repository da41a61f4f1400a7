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
 * The terms of buying a listing: a draft or unknown listing, or a release that
 * is unpublished or another listing's, is not found. Without a release, the
 * latest published one.
 */
export class GetPurchaseTermsQuery extends Query<PurchaseTerms> {
  constructor(
    readonly listingId: string,
    readonly releaseId?: string,
    /** When given, a private or org-only listing the buyer may not see is not found. */
    readonly buyerId?: string,
  ) {
    super();
  }
}
