import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { VendorProfileView, VendorsReader } from '../../read-models/vendors.reader';
import { GetVendorProfileQuery } from './get-vendor-profile.query';

@QueryHandler(GetVendorProfileQuery)
export class GetVendorProfileHandler implements IQueryHandler<GetVendorProfileQuery, VendorProfileView> {
  constructor(private readonly vendors: VendorsReader) {}

  execute({ vendorId }: GetVendorProfileQuery): Promise<VendorProfileView> {
    return this.vendors.require(vendorId);
  }
}
