import { ApiProperty } from '@nestjs/swagger';

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
