import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { Clock } from '../../../../platform/clock/clock';
import { LISTING_SUMMARY_COLUMNS, readListingSummary } from '../../read-models/listing-rows';
import { GetLeaderboardQuery, Leaderboard, LeaderboardListing, LeaderboardWindow } from './get-leaderboard.query';

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/**
 * Each window's order; ties always end on total installs, then id. Recent
 * counts are distinct (user, listing, day) installs recorded in the window.
 */
const ORDERS: Record<LeaderboardWindow, string> = {
  all: 'l.rating_bayes DESC, l.install_count DESC, l.id',
  trending: 'installs_7d DESC, l.install_count DESC, l.id',
  hot: 'installs_24h DESC, installs_7d DESC, l.install_count DESC, l.id',
};

/**
 * Public rankings of the searchable listings (public, published, with a
 * published release). Installs per window come from one grouped query over
 * `listing_installs` restricted by `recorded_at` (index
 * `listing_installs_recent`): for `all`, only over the page's listings; for
 * the install windows, over every listing installed in the last 7 days, which
 * the ranking needs.
 */
@QueryHandler(GetLeaderboardQuery)
export class GetLeaderboardHandler implements IQueryHandler<GetLeaderboardQuery, Leaderboard> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {}

  async execute({ params }: GetLeaderboardQuery): Promise<Leaderboard> {
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
             SELECT l.id, l.vendor_id, l.slug, l.title, l.description, l.type, l.tags, l.targets, l.price_cents, l.currency, l.rating,
               l.rating_bayes, l.install_count, l.latest_version, l.vendor_name, l.vendor_verified
             FROM listings l WHERE ${filter} ORDER BY ${ORDERS.all} LIMIT $2 OFFSET $6
           ), recent AS (${recent('AND i.listing_id IN (SELECT id FROM page)')})
           SELECT ${LISTING_SUMMARY_COLUMNS}, coalesce(r.installs_24h, 0) AS installs_24h, coalesce(r.installs_7d, 0) AS installs_7d
           FROM page l JOIN catalog_vendors v ON v.vendor_id = l.vendor_id LEFT JOIN recent r ON r.listing_id = l.id
           ORDER BY ${ORDERS.all}`
        : `WITH recent AS (${recent('')})
           SELECT ${LISTING_SUMMARY_COLUMNS}, coalesce(r.installs_24h, 0) AS installs_24h, coalesce(r.installs_7d, 0) AS installs_7d
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
  const listing = readListingSummary(row);
  return {
    vendor: listing.vendorSlug,
    slug: listing.slug,
    title: listing.title,
    description: listing.description,
    type: listing.type,
    targets: listing.targets,
    priceCents: listing.priceCents,
    currency: listing.currency,
    svcRating: listing.svcRating,
    installCount: listing.installCount,
    installs24h: Number(row.installs_24h),
    installs7d: Number(row.installs_7d),
    latestVersion: listing.latestVersion as string,
    vendorName: listing.vendorName,
    vendorVerified: listing.vendorVerified,
  };
}
