import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { DomainError } from '../../../platform/errors/domain-error';
import { isUuid } from '../../../platform/ids';

/** Drafts are their vendor's alone; unlisted listings are reachable by address. */
export function visibleTo(listing: Record<string, unknown>, viewerId: string | null): boolean {
  return listing.status !== 'draft' || listing.vendor_id === viewerId;
}

/**
 * Drafts as above; a `private` or `org_only` listing only to its vendor and to the members of the org
 * its vendor profile belongs to. The row carries `visibility` and the vendor's `org_id`.
 */
export async function mayView(
  dataSource: DataSource,
  listing: Record<string, unknown>,
  viewerId: string | null,
): Promise<boolean> {
  if (!visibleTo(listing, viewerId)) return false;
  if (listing.visibility === 'public' || listing.vendor_id === viewerId) return true;
  if (!viewerId || !listing.org_id) return false;
  const rows = await dataSource.query('SELECT 1 FROM org_members WHERE org_id = $1 AND user_id = $2', [listing.org_id, viewerId]);
  return rows.length > 0;
}

/** Reads `listings` and `releases` for the checks commands make and the lookups queries share. */
@Injectable()
export class ListingsReader {
  constructor(private readonly dataSource: DataSource) {}

  /** A listing the viewer may see, by its address; anything else is not found. */
  async visible(
    vendorSlug: string,
    slug: string,
    viewerId: string | null,
  ): Promise<{ id: string; rating: number; ratingCount: number }> {
    const [listing] = await this.dataSource.query(
      `SELECT l.id, l.status, l.vendor_id, l.rating, l.rating_count, l.visibility, v.org_id FROM listings l
       JOIN catalog_vendors v ON v.vendor_id = l.vendor_id WHERE v.slug = $1 AND l.slug = $2`,
      [vendorSlug, slug],
    );
    if (!listing || !(await mayView(this.dataSource, listing, viewerId))) throw new DomainError('not_found', 'Listing not found');
    return { id: listing.id, rating: Number(listing.rating), ratingCount: Number(listing.rating_count) };
  }

  /** Drafts cannot be reviewed: to everyone but their vendor they do not exist. */
  async reviewable(vendorSlug: string, slug: string, userId: string): Promise<{ id: string; vendorId: string }> {
    const [listing] = await this.dataSource.query(
      `SELECT l.id, l.status, l.vendor_id, l.visibility, v.org_id FROM listings l JOIN catalog_vendors v ON v.vendor_id = l.vendor_id
       WHERE v.slug = $1 AND l.slug = $2 AND l.status <> 'draft'`,
      [vendorSlug, slug],
    );
    if (!listing || !(await mayView(this.dataSource, listing, userId))) throw new DomainError('not_found', 'Listing not found');
    return { id: listing.id, vendorId: listing.vendor_id };
  }

  async isOwnedBy(listingId: string, vendorId: string): Promise<boolean> {
    if (!isUuid(listingId)) return false;
    const rows = await this.dataSource.query('SELECT 1 FROM listings WHERE id = $1 AND vendor_id = $2', [listingId, vendorId]);
    return rows.length > 0;
  }

  /** A release of the vendor's, or null: another vendor's release does not exist to it. */
  async ownedRelease(releaseId: string, vendorId: string): Promise<{ listingId: string; version: string } | null> {
    if (!isUuid(releaseId)) return null;
    const [release] = await this.dataSource.query('SELECT listing_id, version FROM releases WHERE id = $1 AND vendor_id = $2', [
      releaseId,
      vendorId,
    ]);
    return release ? { listingId: release.listing_id, version: release.version } : null;
  }
}
