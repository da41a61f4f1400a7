import { ApiProperty } from '@nestjs/swagger';

export class Wallet {
  @ApiProperty({ description: 'Integer cents (usd)' }) balanceCents: number;
  @ApiProperty() autoTopUpEnabled: boolean;
  @ApiProperty() autoTopUpThresholdCents: number;
  @ApiProperty() autoTopUpAmountCents: number;
}

export class AutoTopUp {
  @ApiProperty() autoTopUpEnabled: boolean;
  @ApiProperty() autoTopUpThresholdCents: number;
  @ApiProperty() autoTopUpAmountCents: number;
}

export class TopUpAnswer {
  @ApiProperty({
    description: "The payment intent's `<intent id>_secret_<random>`; the wallet is credited when the processor reports it paid",
  })
  clientSecret: string;
}

export class WalletTransaction {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ enum: ['top_up', 'purchase', 'refund', 'auto_top_up', 'metered_usage'] }) type: string;
  @ApiProperty({ description: 'Signed integer cents: purchases and usage are negative' }) amountCents: number;
  @ApiProperty() balanceAfterCents: number;
  @ApiProperty() description: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

export class WalletTransactions {
  @ApiProperty({ type: [WalletTransaction] }) transactions: WalletTransaction[];
  @ApiProperty({ type: String, nullable: true }) nextCursor: string | null;
  @ApiProperty() hasMore: boolean;
}
