import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { VendorProfileView, VendorsReader } from '../../read-models/vendors.reader';
import { FindVendorProfileQuery } from './find-vendor-profile.query';

@QueryHandler(FindVendorProfileQuery)
export class FindVendorProfileHandler implements IQueryHandler<FindVendorProfileQuery, VendorProfileView | null> {
  constructor(private readonly vendors: VendorsReader) {}

  execute({ vendorId }: FindVendorProfileQuery): Promise<VendorProfileView | null> {
    return this.vendors.find(vendorId);
  }
}
