import { Query } from '@nestjs/cqrs';

export interface RecentOrderView {
  id: string;
  amountCents: number;
  status: string;
  createdAt: string;
  listingTitle: string;
  listingSlug: string;
  vendorSlug: string;
}

export interface BuyerOverview {
  /** Paid orders only; a free order counts as an order of 0 cents. */
  allTime: { totalCents: number; totalOrders: number };
  /** The current UTC calendar month. */
  thisMonth: { totalCents: number };
  /** The current week, Monday 00:00 UTC on. */
  thisWeek: { totalCents: number };
  /** The 10 newest orders, whatever their status. */
  recentOrders: RecentOrderView[];
}

/** What a user spent on purchases paid from their own account (org-paid orders belong to the org). */
export class GetBuyerOverviewQuery extends Query<BuyerOverview> {
  constructor(readonly userId: string) {
    super();
  }
}
