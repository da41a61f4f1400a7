import { IsUUID } from 'class-validator';
import { Optional } from '../../../../platform/http/validation';

/** The checkout the card is for: the hosted form sends the buyer back to `{WEB_URL}/checkout/<listingId>`. */
export class CardSetupSessionDto {
  @IsUUID('all', { message: 'listingId must be a UUID' })
  listingId: string;

  @Optional()
  @IsUUID('all', { message: 'releaseId must be a UUID' })
  releaseId?: string;

  /** The approved purchase the checkout completes, carried back to it. */
  @Optional()
  @IsUUID('all', { message: 'approvalId must be a UUID' })
  approvalId?: string;
}
