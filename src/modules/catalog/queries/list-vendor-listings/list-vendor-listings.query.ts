import { Query } from '@nestjs/cqrs';

/** A listing as its vendor's reports show it. */
export interface VendorListingSummary {
  id: string;
  slug: string;
  title: string;
  /** The current price, integer cents (0 = free). */
  priceCents: number;
  installCount: number;
}

/** Every listing of a vendor, drafts and unlisted ones included, newest first. */
export class ListVendorListingsQuery extends Query<VendorListingSummary[]> {
  constructor(readonly vendorId: string) {
    super();
  }
}
