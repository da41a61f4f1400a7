import { Injectable } from '@nestjs/common';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';
import { DataSource } from 'typeorm';
import { Clock } from '../../../platform/clock/clock';
import { PACKAGE_TYPES } from '../archive/package-manifest';

export const LEADERBOARD_WINDOWS = ['all', 'trending', 'hot'] as const;
export type LeaderboardWindow = (typeof LEADERBOARD_WINDOWS)[number];

/** Deep pages cost a scan each; the leaderboard is for its top, not for walking the catalog. */
export const LEADERBOARD_MAX_OFFSET = 10_000;

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

export class LeaderboardParamsDto {
  /** `all` ranks by rating, `trending` by installs over the last 7 days, `hot` by installs over the last 24 hours. Default `all`. */
  @IsOptional()
  @IsIn(LEADERBOARD_WINDOWS)
  window?: LeaderboardWindow;

  @IsOptional()
  @IsIn(PACKAGE_TYPES)
  type?: string;

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

/**
 * Each window's order; ties always end on total installs, then id. Recent
 * counts are distinct (user, listing, day) installs recorded in the window.
 */
const ORDERS: Record<LeaderboardWindow, string> = {
  all: 'l.rating_bayes DESC, l.install_count DESC, l.id',
  trending: 'installs_7d DESC, l.install_count DESC, l.id',
  hot: 'installs_24h DESC, installs_7d DESC, l.install_count DESC, l.id',
};

const LISTING_COLUMNS = `l.id, l.slug, l.title, l.description, l.type, l.targets, l.price_cents, l.currency, l.rating,
  l.install_count, l.latest_version, l.vendor_name, l.vendor_verified, v.slug AS vendor_slug`;

/**
 * Public rankings of the searchable listings (public, published, with a
 * published release). Installs per window come from one grouped query over
 * `listing_installs` restricted by `recorded_at` (index
 * `listing_installs_recent`): for `all`, only over the page's listings; for
 * the install windows, over every listing installed in the last 7 days, which
 * the ranking needs.
 */
@Injectable()
export class LeaderboardQuery {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {}

  async rank(params: LeaderboardParamsDto): Promise<Leaderboard> {
    const window = params.window ?? 'all';
    const limit = params.limit ?? 50;
    const offset = params.offset ?? 0;
    const type = params.type ?? null;
    const now = this.clock.now();
    const weekAgo = new Date(now.getTime() - 7 * DAY_MS);
    const dayAgo = new Date(now.getTime() - DAY_MS);

    // Installs per listing in the last 7 days and the last 24 hours, as of `now`.
    const recent = (only: string) => `
      SELECT i.listing_id, count(*) AS installs_7d, count(*) FILTER (WHERE i.recorded_at > $4) AS installs_24h
      FROM listing_installs i
      WHERE i.recorded_at > $3 AND i.recorded_at <= $5 ${only}
      GROUP BY i.listing_id`;
    const filter = 'l.searchable AND ($1::text IS NULL OR l.type = $1)';
    const sql =
      window === 'all'
        ? `WITH page AS (
             SELECT l.id, l.vendor_id, l.slug, l.title, l.description, l.type, l.targets, l.price_cents, l.currency, l.rating,
               l.rating_bayes, l.install_count, l.latest_version, l.vendor_name, l.vendor_verified
             FROM listings l WHERE ${filter} ORDER BY ${ORDERS.all} LIMIT $2 OFFSET $6
           ), recent AS (${recent('AND i.listing_id IN (SELECT id FROM page)')})
           SELECT ${LISTING_COLUMNS}, coalesce(r.installs_24h, 0) AS installs_24h, coalesce(r.installs_7d, 0) AS installs_7d
           FROM page l JOIN catalog_vendors v ON v.vendor_id = l.vendor_id LEFT JOIN recent r ON r.listing_id = l.id
           ORDER BY ${ORDERS.all}`
        : `WITH recent AS (${recent('')})
           SELECT ${LISTING_COLUMNS}, coalesce(r.installs_24h, 0) AS installs_24h, coalesce(r.installs_7d, 0) AS installs_7d
           FROM listings l JOIN catalog_vendors v ON v.vendor_id = l.vendor_id LEFT JOIN recent r ON r.listing_id = l.id
           WHERE ${filter}
           ORDER BY ${ORDERS[window]} LIMIT $2 OFFSET $6`;

    const [rows, [totals]] = await Promise.all([
      this.dataSource.query(sql, [type, limit, weekAgo, dayAgo, now, offset]),
      this.dataSource.query(
        `SELECT count(*) AS total, coalesce(sum(l.install_count), 0) AS total_installs FROM listings l WHERE ${filter}`,
        [type],
      ),
    ]);
    return {
      rankings: rows.map((row: Record<string, unknown>, i: number) => ({ rank: offset + i + 1, listing: toListing(row) })),
      total: Number(totals.total),
      totalInstalls: Number(totals.total_installs),
      window,
      generatedAt: now.toISOString(),
    };
  }
}

function toListing(row: Record<string, unknown>): LeaderboardListing {
  return {
    vendor: row.vendor_slug as string,
    slug: row.slug as string,
    title: row.title as string,
    description: row.description as string,
    type: row.type as string,
    targets: row.targets as string[],
    priceCents: Number(row.price_cents),
    currency: row.currency as string,
    svcRating: Number(row.rating),
    installCount: Number(row.install_count),
    installs24h: Number(row.installs_24h),
    installs7d: Number(row.installs_7d),
    latestVersion: row.latest_version as string,
    vendorName: row.vendor_name as string,
    vendorVerified: row.vendor_verified as boolean,
  };
}
