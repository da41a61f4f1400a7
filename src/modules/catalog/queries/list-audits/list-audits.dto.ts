import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';
import { PACKAGE_TYPES, PackageType } from '../../archive/package-manifest';
import { SCAN_STATUSES, ScanStatus } from '../../domain/listing.decider';
import { AUDITS_MAX_OFFSET } from './list-audits.query';

export class AuditsParamsDto {
  @IsOptional()
  @IsIn(PACKAGE_TYPES)
  type?: PackageType;

  /** The scan status of the listing's latest uploaded release. */
  @IsOptional()
  @IsIn(SCAN_STATUSES)
  status?: ScanStatus;

  /** 1-100, default 20. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  limit?: number;

  /** 0-10000, default 0. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(AUDITS_MAX_OFFSET)
  offset?: number;
}
