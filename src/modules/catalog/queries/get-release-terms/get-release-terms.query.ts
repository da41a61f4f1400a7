import { Query } from '@nestjs/cqrs';
import { PurchaseTerms } from '../get-purchase-terms/get-purchase-terms.query';

/**
 * The terms of one release, found by its id alone (a download names only the
 * release): the same answer as `GetPurchaseTermsQuery` for its listing, so an
 * unknown release, an unpublished one, one of a draft listing or of a listing
 * the buyer may not see is not found, and all alike.
 */
export class GetReleaseTermsQuery extends Query<PurchaseTerms> {
  readonly releaseId: string;
  /** As for `GetPurchaseTermsQuery`. */
  readonly buyerId: string;

  constructor(terms: { releaseId: string; buyerId: string }) {
    super();
    this.releaseId = terms.releaseId;
    this.buyerId = terms.buyerId;
  }
}
