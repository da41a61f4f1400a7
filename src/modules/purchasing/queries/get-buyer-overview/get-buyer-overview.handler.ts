import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { Clock } from '../../../../platform/clock/clock';
import { utcMonthOf, utcWeekOf } from '../../domain/periods';
import { BuyerOverview, GetBuyerOverviewQuery } from './get-buyer-overview.query';

const RECENT_ORDERS = 10;

@QueryHandler(GetBuyerOverviewQuery)
export class GetBuyerOverviewHandler implements IQueryHandler<GetBuyerOverviewQuery, BuyerOverview> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {}

  async execute({ userId }: GetBuyerOverviewQuery): Promise<BuyerOverview> {
    const now = this.clock.now();
    const month = utcMonthOf(now);
    const week = utcWeekOf(now);
    const [totals] = await this.dataSource.query(
      `SELECT count(*) AS total_orders,
              coalesce(sum(amount_cents), 0) AS total_cents,
              coalesce(sum(amount_cents) FILTER (WHERE created_at >= $2 AND created_at < $3), 0) AS month_cents,
              coalesce(sum(amount_cents) FILTER (WHERE created_at >= $4 AND created_at < $5), 0) AS week_cents
         FROM orders WHERE buyer_kind = 'user' AND buyer_id = $1 AND status = 'paid'`,
      [userId, month.from, month.to, week.from, week.to],
    );
    const recent: Record<string, unknown>[] = await this.dataSource.query(
      `SELECT id, amount_cents, status, created_at, listing_title, listing_slug, vendor_slug
         FROM orders WHERE buyer_kind = 'user' AND buyer_id = $1
        ORDER BY created_at DESC, id DESC LIMIT ${RECENT_ORDERS}`,
      [userId],
    );
    return {
      allTime: { totalCents: Number(totals.total_cents), totalOrders: Number(totals.total_orders) },
      thisMonth: { totalCents: Number(totals.month_cents) },
      thisWeek: { totalCents: Number(totals.week_cents) },
      recentOrders: recent.map((row) => ({
        id: row.id as string,
        amountCents: Number(row.amount_cents),
        status: row.status as string,
        createdAt: new Date(row.created_at as string).toISOString(),
        listingTitle: row.listing_title as string,
        listingSlug: row.listing_slug as string,
        vendorSlug: row.vendor_slug as string,
      })),
    };
  }
}
