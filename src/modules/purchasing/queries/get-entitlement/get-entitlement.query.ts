import { Query } from '@nestjs/cqrs';
import { EntitlementView } from '../../read-models/purchase-rows';

/** The caller's entitlement to a listing, or null. */
export class GetEntitlementQuery extends Query<EntitlementView | null> {
  constructor(
    readonly userId: string,
    readonly listingId: string,
  ) {
    super();
  }
}
