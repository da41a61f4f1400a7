import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Period } from '../domain/periods';

export interface SalesTotals {
  /** What buyers paid, integer cents. */
  grossCents: number;
  /** What the vendor keeps after the platform fee. */
  netCents: number;
  /** Paid orders, free ones included. */
  sales: number;
}

/**
 * A vendor's sales from `orders`: paid orders of its listings only (a pending
 * or failed order has earned nothing yet); a free order is a sale of 0 cents.
 */
@Injectable()
export class VendorSalesReader {
  constructor(private readonly dataSource: DataSource) {}

  /** All time, and within `period`. */
  async totals(vendorId: string, period: Period): Promise<{ allTime: SalesTotals; inPeriod: SalesTotals }> {
    const [row] = await this.dataSource.query(
      `SELECT count(*) AS sales, coalesce(sum(amount_cents), 0) AS gross, coalesce(sum(vendor_net_cents), 0) AS net,
              count(*) FILTER (WHERE created_at >= $2 AND created_at < $3) AS period_sales,
              coalesce(sum(amount_cents) FILTER (WHERE created_at >= $2 AND created_at < $3), 0) AS period_gross,
              coalesce(sum(vendor_net_cents) FILTER (WHERE created_at >= $2 AND created_at < $3), 0) AS period_net
         FROM orders WHERE vendor_id = $1 AND status = 'paid'`,
      [vendorId, period.from, period.to],
    );
    return {
      allTime: { grossCents: Number(row.gross), netCents: Number(row.net), sales: Number(row.sales) },
      inPeriod: { grossCents: Number(row.period_gross), netCents: Number(row.period_net), sales: Number(row.period_sales) },
    };
  }

  /** Per listing that sold at least once. */
  async byListing(vendorId: string): Promise<Map<string, SalesTotals>> {
    const rows: Record<string, unknown>[] = await this.dataSource.query(
      `SELECT listing_id, count(*) AS sales, sum(amount_cents) AS gross, sum(vendor_net_cents) AS net
         FROM orders WHERE vendor_id = $1 AND status = 'paid' GROUP BY listing_id`,
      [vendorId],
    );
    return new Map(
      rows.map((row) => [
        row.listing_id as string,
        { grossCents: Number(row.gross), netCents: Number(row.net), sales: Number(row.sales) },
      ]),
    );
  }
}
