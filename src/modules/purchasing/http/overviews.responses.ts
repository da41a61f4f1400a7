import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class SpentTotal {
  @ApiProperty({ description: 'Integer cents' }) totalCents: number;
}

export class SpentAllTime extends SpentTotal {
  @ApiProperty({ description: 'Paid orders, free ones included' }) totalOrders: number;
}

export class RecentOrder {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ description: 'Integer cents' }) amountCents: number;
  @ApiProperty({ enum: ['paid', 'pending', 'failed'] }) status: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty() listingTitle: string;
  @ApiProperty() listingSlug: string;
  @ApiProperty() vendorSlug: string;
}

export class BillingOverview {
  @ApiProperty({ type: SpentAllTime, description: 'Paid orders only' }) allTime: SpentAllTime;
  @ApiProperty({ type: SpentTotal, description: 'Paid orders of the current calendar month (UTC)' }) thisMonth: SpentTotal;
  @ApiProperty({ type: SpentTotal, description: 'Paid orders of the current week, from Monday 00:00 UTC' }) thisWeek: SpentTotal;
  @ApiProperty({ type: [RecentOrder], description: 'The 10 newest orders, any status' }) recentOrders: RecentOrder[];
}

export class SellerVendor {
  @ApiProperty() slug: string;
  @ApiProperty() displayName: string;
}

export class SellerMonth {
  @ApiProperty({ description: 'What buyers paid, integer cents' }) grossCents: number;
  @ApiProperty({ description: 'What the vendor keeps after the platform fee, integer cents' }) netCents: number;
}

export class SellerAllTime extends SellerMonth {
  @ApiProperty({ description: 'Paid orders of the vendor’s listings, free ones included' }) totalSales: number;
}

export class SellerOverview {
  @ApiProperty({ description: 'false (and nothing else) when the caller has no vendor profile' }) isVendor: boolean;
  @ApiPropertyOptional({ type: SellerVendor }) vendor?: SellerVendor;
  @ApiPropertyOptional({ type: SellerAllTime, description: 'Paid orders only' }) allTime?: SellerAllTime;
  @ApiPropertyOptional({ type: SellerMonth, description: 'Paid orders of the current calendar month (UTC)' })
  thisMonth?: SellerMonth;
}

export class AnalyticsVendor extends SellerVendor {
  @ApiProperty({ description: 'The payment processor reported charges enabled and details submitted' })
  stripeOnboardingComplete: boolean;
}

export class AnalyticsRevenue {
  @ApiProperty({ description: 'Gross: what buyers paid for paid orders, integer cents' }) totalCents: number;
  @ApiProperty({ description: 'Paid orders, free ones included' }) totalOrders: number;
}

export class ListingAnalytics {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() slug: string;
  @ApiProperty() title: string;
  @ApiProperty({ description: 'The current price, integer cents (0 = free)' }) priceCents: number;
  @ApiProperty() installCount: number;
  @ApiProperty({ description: 'Paid orders, free ones included' }) orderCount: number;
  @ApiProperty({ description: 'Gross, integer cents' }) revenueCents: number;
}

export class VendorAnalytics {
  @ApiProperty({ type: AnalyticsVendor }) vendor: AnalyticsVendor;
  @ApiProperty({ type: AnalyticsRevenue }) revenue: AnalyticsRevenue;
  @ApiProperty({ type: [ListingAnalytics], description: 'Every listing of the vendor, drafts included, newest first' })
  listings: ListingAnalytics[];
}
