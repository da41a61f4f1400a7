import { Query } from '@nestjs/cqrs';

export const LEADERBOARD_WINDOWS = ['all', 'trending', 'hot'] as const;
export type LeaderboardWindow = (typeof LEADERBOARD_WINDOWS)[number];

/** Deep pages cost a scan each; the leaderboard is for its top, not for walking the catalog. */
export const LEADERBOARD_MAX_OFFSET = 10_000;

export interface LeaderboardListing {
  vendor: string;
  slug: string;
  title: string;
  description: string;
  type: string;
  targets: string[];
  priceCents: number;
  currency: string;
  svcRating: number;
  installCount: number;
  installs24h: number;
  installs7d: number;
  latestVersion: string;
  vendorName: string;
  vendorVerified: boolean;
}

export interface Leaderboard {
  rankings: { rank: number; listing: LeaderboardListing }[];
  total: number;
  totalInstalls: number;
  window: LeaderboardWindow;
  generatedAt: string;
}

/** One page of the public rankings; omitted fields take their defaults (`all`, every type, 50 from 0). */
export class GetLeaderboardQuery extends Query<Leaderboard> {
  constructor(readonly params: { window?: LeaderboardWindow; type?: string; limit?: number; offset?: number }) {
    super();
  }
}
