import { Query } from '@nestjs/cqrs';

export interface ListingAnalyticsView {
  id: string;
  slug: string;
  title: string;
  priceCents: number;
  installCount: number;
  /** Paid orders of the listing, free ones included. */
  orderCount: number;
  /** Gross: what buyers paid for it, before the platform fee. */
  revenueCents: number;
}

export interface VendorAnalytics {
  vendor: { slug: string; displayName: string; stripeOnboardingComplete: boolean };
  /** Gross revenue and the number of paid orders, over every listing. */
  revenue: { totalCents: number; totalOrders: number };
  /** Every listing of the vendor (drafts and listings that never sold included), newest first. */
  listings: ListingAnalyticsView[];
}

/** The vendor's sales per listing beside installs and payout onboarding; 403 without a vendor profile. */
export class GetVendorAnalyticsQuery extends Query<VendorAnalytics> {
  constructor(readonly vendorId: string) {
    super();
  }
}
