import { IsBoolean, IsIn, IsInt, IsString, IsUUID, Max, MaxLength, Min } from 'class-validator';
import { Optional } from '../../../../platform/http/validation';

export class PurchaseDto {
  @IsUUID('all', { message: 'listingId must be a UUID' })
  listingId: string;

  /** Default: the latest published release. */
  @Optional()
  @IsUUID('all', { message: 'releaseId must be a UUID' })
  releaseId?: string;

  /** A ceiling: a price above it is refused (409) and nothing moves. */
  @Optional()
  @IsInt({ message: 'maxPriceCents must be an integer number of cents' })
  @Min(0, { message: 'maxPriceCents must be at least 0' })
  @Max(100_000_000, { message: 'maxPriceCents must be at most 100000000' })
  maxPriceCents?: number;

  /** Pay from the wallet instead of the saved card. */
  @Optional()
  @IsBoolean()
  useWallet?: boolean;

  /** Pay from an organization's wallet. */
  @Optional()
  @IsString()
  @MaxLength(64)
  orgSlug?: string;

  @Optional()
  @IsIn(['api', 'web'], { message: 'channel must be api or web' })
  channel?: 'api' | 'web';
}
