/** The spec's Search result: the summary of a listing that search and listing pages share. */
export interface SearchResult {
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
  latestVersion: string;
  installCount: number;
  svcRating: string;
  vendorName: string;
  vendorVerified: boolean;
}

/** The columns `toSearchResult` reads, from `listings l` joined with `catalog_vendors v`. */
export const SEARCH_RESULT_COLUMNS = `l.id, v.slug AS vendor_slug, l.slug, l.title, l.description, l.type, l.tags, l.targets, l.price_cents,
  l.currency, l.latest_version, l.install_count, l.rating, l.vendor_name, l.vendor_verified`;

export function toSearchResult(row: Record<string, unknown>): SearchResult {
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
    currency: (row.currency as string).toLowerCase(),
    latestVersion: row.latest_version as string,
    installCount: Number(row.install_count),
    svcRating: Number(row.rating).toFixed(2),
    vendorName: row.vendor_name as string,
    vendorVerified: row.vendor_verified as boolean,
  };
}
