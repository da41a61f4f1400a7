import { Query } from '@nestjs/cqrs';

/** The caller's vendor facts as the catalog keeps them; 403 to a caller without a vendor profile. */
export class GetCatalogVendorQuery extends Query<{ slug: string }> {
  constructor(readonly vendorId: string) {
    super();
  }
}
