import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';
import { PACKAGE_TYPES, PackageType } from '../../archive/package-manifest';
import { LEADERBOARD_MAX_OFFSET, LEADERBOARD_WINDOWS, LeaderboardWindow } from './get-leaderboard.query';

export class LeaderboardParamsDto {
  /** `all` ranks by rating, `trending` by installs over the last 7 days, `hot` by installs over the last 24 hours. Default `all`. */
  @IsOptional()
  @IsIn(LEADERBOARD_WINDOWS)
  window?: LeaderboardWindow;

  @IsOptional()
  @IsIn(PACKAGE_TYPES)
  type?: PackageType;

  /** 1-200, default 50. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(200)
  limit?: number;

  /** 0-10000, default 0. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(LEADERBOARD_MAX_OFFSET)
  offset?: number;
}
