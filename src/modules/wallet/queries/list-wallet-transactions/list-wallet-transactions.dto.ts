import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

export class WalletTransactionsQueryDto {
  /** 1-100, default 50. */
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'limit must be an integer' })
  @Min(1, { message: 'limit must be at least 1' })
  @Max(100, { message: 'limit must be at most 100' })
  limit?: number;

  /** `nextCursor` of the previous page. */
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  cursor?: string;
}
