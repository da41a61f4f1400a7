import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { PreparedStatements } from '../../../platform/database/prepared-statements';
import { DomainError } from '../../../platform/errors/domain-error';
import { isUuid } from '../../../platform/ids';
import { OrgsReader } from '../../orgs/read-models/orgs.reader';
import { mayView } from '../domain/listing-visibility';

/** How a caller names a listing: by its public address or by its id. */
export type ListingAddress = { vendorSlug: string; slug: string } | { listingId: string };

/** A listing as someone allowed to see it finds it: what addresses it, and what receipts and pages show of it. */
export interface VisibleListing {
  id: string;
  vendorId: string;
  vendorSlug: string;
  vendorName: string;
  slug: string;
  title: string;
  status: string;
  rating: number;
  ratingCount: number;
}

const SELECT_LISTING = `
  SELECT l.id, l.vendor_id, l.slug, l.title, l.status, l.visibility, l.rating, l.rating_count,
         v.slug AS vendor_slug, v.display_name AS vendor_name, v.org_id
    FROM listings l JOIN catalog_vendors v ON v.vendor_id = l.vendor_id`;
const BY_ADDRESS = `${SELECT_LISTING} WHERE v.slug = $1 AND l.slug = $2`;
const BY_ID = `${SELECT_LISTING} WHERE l.id = $1`;

type ListingRow = {
  id: string;
  vendor_id: string;
  slug: string;
  title: string;
  status: string;
  visibility: string;
  rating: string;
  rating_count: string;
  vendor_slug: string;
  vendor_name: string;
  org_id: string | null;
};

export const listingNotFound = (): DomainError => new DomainError('not_found', 'Listing not found');

/**
 * Reads `listings` for the catalog and for other modules (purchases, downloads, the agent network). Every read of a
 * listing made for someone goes through `find` or `require`, which take the viewer and apply `mayView` themselves:
 * a listing the viewer may not see is answered exactly as one that does not exist, and no route can forget to ask.
 */
@Injectable()
export class ListingsReader {
  constructor(
    private readonly dataSource: DataSource,
    private readonly prepared: PreparedStatements,
    private readonly orgs: OrgsReader,
  ) {}

  /** The listing if it exists and the viewer (`null`: anonymous) may see it; otherwise null, with no telling which. */
  async find(address: ListingAddress, viewerId: string | null): Promise<VisibleListing | null> {
    const row = await this.row(address);
    if (!row) return null;
    const facts = { vendorId: row.vendor_id, status: row.status, visibility: row.visibility, orgId: row.org_id };
    if (!(await mayView(facts, viewerId, (orgId, userId) => this.orgs.isMember(orgId, userId)))) return null;
    return {
      id: row.id,
      vendorId: row.vendor_id,
      vendorSlug: row.vendor_slug,
      vendorName: row.vendor_name,
      slug: row.slug,
      title: row.title,
      status: row.status,
      rating: Number(row.rating),
      ratingCount: Number(row.rating_count),
    };
  }

  /** As `find`, but 404 "Listing not found". */
  async require(address: ListingAddress, viewerId: string | null): Promise<VisibleListing> {
    const listing = await this.find(address, viewerId);
    if (!listing) throw listingNotFound();
    return listing;
  }

  /** Drafts cannot be reviewed: to everyone but their vendor they do not exist, and their vendor reviews nothing. */
  async reviewable(vendorSlug: string, slug: string, userId: string): Promise<VisibleListing> {
    const listing = await this.require({ vendorSlug, slug }, userId);
    if (listing.status === 'draft') throw listingNotFound();
    return listing;
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

  /** Purchases and service calls ask on every request: planned once per connection. */
  private async row(address: ListingAddress): Promise<ListingRow | undefined> {
    if ('listingId' in address) {
      if (!isUuid(address.listingId)) return undefined;
      return (await this.prepared.query<ListingRow>(BY_ID, [address.listingId]))[0];
    }
    return (await this.prepared.query<ListingRow>(BY_ADDRESS, [address.vendorSlug, address.slug]))[0];
  }
}
