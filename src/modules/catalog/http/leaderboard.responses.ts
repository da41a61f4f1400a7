import { ApiProperty } from '@nestjs/swagger';
import { PACKAGE_TYPES } from '../archive/package-manifest';
import { LEADERBOARD_WINDOWS } from '../queries/get-leaderboard/get-leaderboard.query';

export class LeaderboardListingItem {
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

export class LeaderboardRanking {
  /** 1-based, counting from the start of the whole leaderboard (`offset` + 1 for the first item). */
  @ApiProperty() rank: number;
  @ApiProperty({ type: LeaderboardListingItem }) listing: LeaderboardListingItem;
}

export class LeaderboardResponse {
  @ApiProperty({ type: [LeaderboardRanking] }) rankings: LeaderboardRanking[];
  /** Ranked listings matching `type`, over all pages. */
  @ApiProperty() total: number;
  /** Sum of `installCount` over those listings. */
  @ApiProperty() totalInstalls: number;
  @ApiProperty({ enum: LEADERBOARD_WINDOWS }) window: string;
  @ApiProperty({ format: 'date-time' }) generatedAt: string;
}
