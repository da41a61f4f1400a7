import { IsOptional, IsString, Matches, MaxLength } from 'class-validator';

export class OrdersQueryDto {
  /** The processor's payment intent (`pi_...`) that paid for an order. */
  @IsOptional()
  @IsString()
  @MaxLength(255)
  @Matches(/^[A-Za-z0-9_]+$/, { message: 'paymentIntentId must be a payment intent id like pi_...' })
  paymentIntentId?: string;
}
