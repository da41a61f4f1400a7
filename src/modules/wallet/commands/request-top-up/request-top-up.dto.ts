import { IsInt, Max, Min } from 'class-validator';
import { TOP_UP_MAX_CENTS, TOP_UP_MIN_CENTS } from '../../domain/wallet-owner';

export class TopUpDto {
  /** Integer cents, 500 to 50000. */
  @IsInt({ message: 'amountCents must be an integer number of cents' })
  @Min(TOP_UP_MIN_CENTS, { message: `amountCents must be at least ${TOP_UP_MIN_CENTS}` })
  @Max(TOP_UP_MAX_CENTS, { message: `amountCents must be at most ${TOP_UP_MAX_CENTS}` })
  amountCents: number;
}
