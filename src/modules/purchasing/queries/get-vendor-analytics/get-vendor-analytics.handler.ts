import { IQueryHandler, QueryBus, QueryHandler } from '@nestjs/cqrs';
import { GetSellerAccountQuery } from '../../../billing/queries/get-seller-account/get-seller-account.query';
import { ListVendorListingsQuery } from '../../../catalog/queries/list-vendor-listings/list-vendor-listings.query';
import { GetVendorProfileQuery } from '../../../vendors/queries/get-vendor-profile/get-vendor-profile.query';
import { VendorSalesReader } from '../../read-models/vendor-sales.reader';
import { GetVendorAnalyticsQuery, VendorAnalytics } from './get-vendor-analytics.query';

/**
 * Sales are this module's (`orders`); the profile, the listings with their
 * installs and the payout onboarding are asked of the modules that own them.
 */
@QueryHandler(GetVendorAnalyticsQuery)
export class GetVendorAnalyticsHandler implements IQueryHandler<GetVendorAnalyticsQuery, VendorAnalytics> {
  constructor(
    private readonly queries: QueryBus,
    private readonly sales: VendorSalesReader,
  ) {}

  async execute({ vendorId }: GetVendorAnalyticsQuery): Promise<VendorAnalytics> {
    // 403 naming the missing profile, as every vendor endpoint answers without one.
    const profile = await this.queries.execute(new GetVendorProfileQuery(vendorId));
    const [account, listings, byListing] = await Promise.all([
      this.queries.execute(new GetSellerAccountQuery(vendorId)),
      this.queries.execute(new ListVendorListingsQuery(vendorId)),
      this.sales.byListing(vendorId),
    ]);
    // Every order is of one listing, so the listings' sales add up to the vendor's.
    const sold = [...byListing.values()];
    return {
      vendor: { slug: profile.slug, displayName: profile.displayName, stripeOnboardingComplete: account.onboardingComplete },
      revenue: {
        totalCents: sold.reduce((sum, listing) => sum + listing.grossCents, 0),
        totalOrders: sold.reduce((sum, listing) => sum + listing.sales, 0),
      },
      listings: listings.map((listing) => {
        const sold = byListing.get(listing.id);
        return { ...listing, orderCount: sold?.sales ?? 0, revenueCents: sold?.grossCents ?? 0 };
      }),
    };
  }
}
