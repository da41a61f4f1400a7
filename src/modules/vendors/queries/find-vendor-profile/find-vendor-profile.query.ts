import { Query } from '@nestjs/cqrs';
import type { VendorProfileView } from '../../read-models/vendors.reader';

/** A user's vendor profile, or null when the user has none (for views that answer either way). */
export class FindVendorProfileQuery extends Query<VendorProfileView | null> {
  constructor(readonly vendorId: string) {
    super();
  }
}
