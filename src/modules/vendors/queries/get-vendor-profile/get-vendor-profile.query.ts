import { Query } from '@nestjs/cqrs';
import type { VendorProfileView } from '../../read-models/vendors.reader';

export type { VendorProfileView };

/** A vendor's profile and verification state; 403 when the user has no vendor profile. */
export class GetVendorProfileQuery extends Query<VendorProfileView> {
  constructor(readonly vendorId: string) {
    super();
  }
}
