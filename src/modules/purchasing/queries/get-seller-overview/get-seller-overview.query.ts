import { Query } from '@nestjs/cqrs';

export type SellerOverview =
  | { isVendor: false }
  | {
      isVendor: true;
      vendor: { slug: string; displayName: string };
      /** Paid orders of the vendor's listings: gross is what buyers paid, net what the vendor keeps after the fee. */
      allTime: { grossCents: number; netCents: number; totalSales: number };
      /** The current UTC calendar month. */
      thisMonth: { grossCents: number; netCents: number };
    };

/** A user's sales as a vendor; only `{isVendor:false}` when the user has no vendor profile. */
export class GetSellerOverviewQuery extends Query<SellerOverview> {
  constructor(readonly userId: string) {
    super();
  }
}
