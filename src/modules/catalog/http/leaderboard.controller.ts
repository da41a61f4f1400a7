import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiProperty, ApiTags } from '@nestjs/swagger';
import { Public } from '../../../platform/http/access';
import { PACKAGE_TYPES } from '../archive/package-manifest';
import { LEADERBOARD_WINDOWS, LeaderboardParamsDto, LeaderboardQuery } from '../queries/leaderboard';

class LeaderboardListingItem {
  /** The vendor's slug. */
  @ApiProperty() vendor: string;
  @ApiProperty() slug: string;
  @ApiProperty() title: string;
  @ApiProperty() description: string;
  @ApiProperty({ enum: PACKAGE_TYPES }) type: string;
  @ApiProperty({ type: [String] }) targets: string[];
  @ApiProperty() priceCents: number;
  @ApiProperty({ example: 'usd' }) currency: string;
  /** Average review rating, 0 without reviews. */
  @ApiProperty({ example: 4.5 }) svcRating: number;
  /** All-time installs: one per user, listing and UTC day. */
  @ApiProperty() installCount: number;
  /** Installs recorded in the 24 hours before `generatedAt`. */
  @ApiProperty() installs24h: number;
  /** Installs recorded in the 7 days before `generatedAt`. */
  @ApiProperty() installs7d: number;
  @ApiProperty() latestVersion: string;
  @ApiProperty() vendorName: string;
  @ApiProperty() vendorVerified: boolean;
}

class LeaderboardRanking {
  /** 1-based, counting from the start of the whole leaderboard (`offset` + 1 for the first item). */
  @ApiProperty() rank: number;
  @ApiProperty({ type: LeaderboardListingItem }) listing: LeaderboardListingItem;
}

class LeaderboardResponse {
  @ApiProperty({ type: [LeaderboardRanking] }) rankings: LeaderboardRanking[];
  /** Ranked listings matching `type`, over all pages. */
  @ApiProperty() total: number;
  /** Sum of `installCount` over those listings. */
  @ApiProperty() totalInstalls: number;
  @ApiProperty({ enum: LEADERBOARD_WINDOWS }) window: string;
  @ApiProperty({ format: 'date-time' }) generatedAt: string;
}

/**
 * Public rankings. `all`: Bayesian average rating (few reviews pull toward the
 * catalog mean), then installs; `trending`: installs over the last 7 days, then
 * all-time installs; `hot`: installs over the last 24 hours, then over 7 days,
 * then all-time. Ties end on the listing id.
 */
@ApiTags('leaderboard')
@Public()
@Controller('v1/leaderboard')
export class LeaderboardController {
  constructor(private readonly leaderboard: LeaderboardQuery) {}

  @Get()
  @ApiOkResponse({ type: LeaderboardResponse })
  rank(@Query() params: LeaderboardParamsDto): Promise<LeaderboardResponse> {
    return this.leaderboard.rank(params);
  }
}
