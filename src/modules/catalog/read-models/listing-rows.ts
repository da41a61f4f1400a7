/**
 * Rows of the `listings` read model joined with `catalog_vendors v`: the
 * columns every listing summary reads, and the one mapper from such a row to
 * typed values. Each answer (search result, listing page, leaderboard entry)
 * is shaped from this.
 */
export const LISTING_SUMMARY_COLUMNS = `l.id, v.slug AS vendor_slug, l.slug, l.title, l.description, l.type, l.tags, l.targets, l.price_cents,
  l.currency, l.latest_version, l.install_count, l.rating, l.vendor_name, l.vendor_verified`;

export interface ListingSummaryRow {
  id: string;
  vendorSlug: string;
  slug: string;
  title: string;
  description: string;
  type: string;
  tags: string[];
  targets: string[];
  priceCents: number;
  currency: string;
  latestVersion: string | null;
  installCount: number;
  /** The average review rating, 0 without reviews. */
  svcRating: number;
  vendorName: string;
  vendorVerified: boolean;
}

export function readListingSummary(row: Record<string, unknown>): ListingSummaryRow {
  return {
    id: row.id as string,
    vendorSlug: row.vendor_slug as string,
    slug: row.slug as string,
    title: row.title as string,
    description: row.description as string,
    type: row.type as string,
    tags: row.tags as string[],
    targets: row.targets as string[],
    priceCents: Number(row.price_cents),
    currency: row.currency as string,
    latestVersion: row.latest_version as string | null,
    installCount: Number(row.install_count),
    svcRating: Number(row.rating),
    vendorName: row.vendor_name as string,
    vendorVerified: row.vendor_verified as boolean,
  };
}

/** The spec's Search result: the summary of a listing that search and listing pages share. */
export interface SearchResult extends Omit<ListingSummaryRow, 'latestVersion' | 'svcRating'> {
  latestVersion: string;
  /** The average rating as text with two decimals. */
  svcRating: string;
}

export function toSearchResult(row: Record<string, unknown>): SearchResult {
  const summary = readListingSummary(row);
  return {
    ...summary,
    currency: summary.currency.toLowerCase(),
    latestVersion: summary.latestVersion as string,
    svcRating: summary.svcRating.toFixed(2),
  };
}
