import { IsBoolean, IsInt, Max, Min } from 'class-validator';
import { Optional } from '../../../../platform/http/validation';
import { TOP_UP_MAX_CENTS, TOP_UP_MIN_CENTS } from '../../domain/wallet-owner';

export class ConfigureAutoTopUpDto {
  /** Enabling needs a saved payment method. */
  @Optional()
  @IsBoolean()
  enabled?: boolean;

  /** A debit that leaves the balance below this many cents triggers a top-up. */
  @Optional()
  @IsInt({ message: 'thresholdCents must be an integer number of cents' })
  @Min(0, { message: 'thresholdCents must be at least 0' })
  @Max(10_000_000, { message: 'thresholdCents must be at most 10000000' })
  thresholdCents?: number;

  /** How much each automatic top-up adds, 500 to 50000 cents. */
  @Optional()
  @IsInt({ message: 'amountCents must be an integer number of cents' })
  @Min(TOP_UP_MIN_CENTS, { message: `amountCents must be at least ${TOP_UP_MIN_CENTS}` })
  @Max(TOP_UP_MAX_CENTS, { message: `amountCents must be at most ${TOP_UP_MAX_CENTS}` })
  amountCents?: number;
}
