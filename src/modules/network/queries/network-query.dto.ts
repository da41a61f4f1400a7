import { Transform, Type } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, IsUUID, Max, MaxLength, Min } from 'class-validator';
import { PageQueryDto } from '../../../platform/http/page-query.dto';
import { SERVICE_PROTOCOLS, ServiceProtocol, SETTLEMENT_METHODS, SettlementMethod } from '../../catalog/domain/listing-fields';

const toBoolean = ({ value }: { value: unknown }) =>
  value === 'true' || value === '1' ? true : value === 'false' || value === '0' ? false : value;

export class ServicesQueryDto extends PageQueryDto {
  /** A tool the service itself lists (from its latest successful probe). */
  @IsOptional()
  @IsString()
  @MaxLength(128)
  tool?: string;

  @IsOptional()
  @IsIn(SERVICE_PROTOCOLS)
  protocol?: ServiceProtocol;

  @IsOptional()
  @IsIn(SETTLEMENT_METHODS)
  settlement?: SettlementMethod;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(100_000_000)
  maxPerCallCents?: number;

  @IsOptional()
  @IsIn(['active', 'inactive', 'degraded'])
  status?: 'active' | 'inactive' | 'degraded';

  @IsOptional()
  @Transform(toBoolean)
  @IsBoolean()
  verified?: boolean;

  /** Default `recent`. */
  @IsOptional()
  @IsIn(['recent', 'trusted'])
  sort?: 'recent' | 'trusted';
}

export class MessagesQueryDto {
  /** 1-200, default 50. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(200)
  limit?: number;

  /** A message id: the messages after it. */
  @IsOptional()
  @IsUUID('all', { message: 'after must be a message id' })
  after?: string;
}

export class InboxQueryDto {
  /** 1-100, default 50. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  limit?: number;
}
