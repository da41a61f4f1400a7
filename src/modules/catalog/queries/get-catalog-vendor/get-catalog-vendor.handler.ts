import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { CatalogVendorsReader } from '../../read-models/catalog-vendors.reader';
import { GetCatalogVendorQuery } from './get-catalog-vendor.query';

@QueryHandler(GetCatalogVendorQuery)
export class GetCatalogVendorHandler implements IQueryHandler<GetCatalogVendorQuery, { slug: string }> {
  constructor(private readonly vendors: CatalogVendorsReader) {}

  execute({ vendorId }: GetCatalogVendorQuery): Promise<{ slug: string }> {
    return this.vendors.require(vendorId);
  }
}
