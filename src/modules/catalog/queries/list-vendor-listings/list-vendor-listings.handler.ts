import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { ListVendorListingsQuery, VendorListingSummary } from './list-vendor-listings.query';

@QueryHandler(ListVendorListingsQuery)
export class ListVendorListingsHandler implements IQueryHandler<ListVendorListingsQuery, VendorListingSummary[]> {
  constructor(private readonly dataSource: DataSource) {}

  async execute({ vendorId }: ListVendorListingsQuery): Promise<VendorListingSummary[]> {
    const rows: Record<string, unknown>[] = await this.dataSource.query(
      `SELECT id, slug, title, price_cents, install_count FROM listings WHERE vendor_id = $1 ORDER BY created_at DESC, id`,
      [vendorId],
    );
    return rows.map((row) => ({
      id: row.id as string,
      slug: row.slug as string,
      title: row.title as string,
      priceCents: Number(row.price_cents),
      installCount: Number(row.install_count),
    }));
  }
}
