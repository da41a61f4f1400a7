import { Query } from '@nestjs/cqrs';
import { PurchaseTerms } from '../get-purchase-terms/get-purchase-terms.query';

/**
 * The terms of one release, found by its id alone (a download names only the
 * release): the same answer as `GetPurchaseTermsQuery` for its listing, so an
 * unknown release, an unpublished one or one of a draft listing is not found.
 */
export class GetReleaseTermsQuery extends Query<PurchaseTerms> {
  constructor(
    readonly releaseId: string,
    /** As for `GetPurchaseTermsQuery`. */
    readonly buyerId?: string,
  ) {
    super();
  }
}
