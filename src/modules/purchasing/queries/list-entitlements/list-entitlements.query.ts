import { Query } from '@nestjs/cqrs';
import { EntitlementView } from '../../read-models/purchase-rows';

/** The caller's entitlements, newest first. */
export class ListEntitlementsQuery extends Query<EntitlementView[]> {
  constructor(readonly userId: string) {
    super();
  }
}
