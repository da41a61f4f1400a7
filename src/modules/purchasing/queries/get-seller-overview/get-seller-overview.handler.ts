import { IQueryHandler, QueryBus, QueryHandler } from '@nestjs/cqrs';
import { Clock } from '../../../../platform/clock/clock';
import { FindVendorProfileQuery } from '../../../vendors/queries/find-vendor-profile/find-vendor-profile.query';
import { utcMonthOf } from '../../domain/periods';
import { VendorSalesReader } from '../../read-models/vendor-sales.reader';
import { GetSellerOverviewQuery, SellerOverview } from './get-seller-overview.query';

@QueryHandler(GetSellerOverviewQuery)
export class GetSellerOverviewHandler implements IQueryHandler<GetSellerOverviewQuery, SellerOverview> {
  constructor(
    private readonly queries: QueryBus,
    private readonly sales: VendorSalesReader,
    private readonly clock: Clock,
  ) {}

  async execute({ userId }: GetSellerOverviewQuery): Promise<SellerOverview> {
    // The vendor's id is the user's.
    const profile = await this.queries.execute(new FindVendorProfileQuery(userId));
    if (!profile) return { isVendor: false };
    const { allTime, inPeriod } = await this.sales.totals(userId, utcMonthOf(this.clock.now()));
    return {
      isVendor: true,
      vendor: { slug: profile.slug, displayName: profile.displayName },
      allTime: { grossCents: allTime.grossCents, netCents: allTime.netCents, totalSales: allTime.sales },
      thisMonth: { grossCents: inPeriod.grossCents, netCents: inPeriod.netCents },
    };
  }
}
