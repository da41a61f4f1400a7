import * as semver from 'semver';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { DomainError } from '../../../platform/errors/domain-error';
import { isUuid } from '../../../platform/ids';
import { SearchResult, toSearchResult } from './search-result';

/** A listing's whole public record: the search summary plus everything its page shows. */
export interface ListingRecord extends Omit<SearchResult, 'latestVersion'> {
  latestVersion: string | null;
  tools: string[];
  vendor: {
    slug: string;
    displayName: string;
    verified: boolean;
    domainVerified: boolean;
    githubVerified: boolean;
    githubOrg: string | null;
  };
  readmeMd: string | null;
  status: string;
  serviceEndpoint: string | null;
  serviceProtocol: string | null;
  serviceTransport: string | null;
  pricingModel: string;
  perCallCents: number | null;
  settlementMethods: string[];
  capabilities: Record<string, unknown> | null;
  agentCard: Record<string, unknown> | null;
  rating: number;
  ratingCount: number;
  createdAt: string;
  updatedAt: string;
}

export interface PublishedRelease {
  id: string;
  version: string;
  archiveSha256: string;
  publishedAt: string;
}

const SELECT_LISTING = `
  SELECT l.*, v.slug AS vendor_slug, v.domain_verified, v.github_verified, v.github_org
  FROM listings l JOIN catalog_vendors v ON v.vendor_id = l.vendor_id`;

/** Reads listings for the public and for their vendor. Drafts are their vendor's alone; unlisted ones are reachable by URL. */
@Injectable()
export class ListingRecords {
  constructor(private readonly dataSource: DataSource) {}

  async byPath(vendorSlug: string, slug: string, viewerId: string | null): Promise<ListingRecord> {
    const [row] = await this.dataSource.query(`${SELECT_LISTING} WHERE v.slug = $1 AND l.slug = $2`, [vendorSlug, slug]);
    if (!row || (row.status === 'draft' && row.vendor_id !== viewerId)) throw new DomainError('not_found', 'Listing not found');
    return toRecord(row);
  }

  async byId(listingId: string): Promise<ListingRecord> {
    const [row] = isUuid(listingId) ? await this.dataSource.query(`${SELECT_LISTING} WHERE l.id = $1`, [listingId]) : [];
    if (!row) throw new DomainError('not_found', 'Listing not found');
    return toRecord(row);
  }

  /** Published releases, highest version first. */
  async releases(vendorSlug: string, slug: string, viewerId: string | null): Promise<PublishedRelease[]> {
    const listing = await this.byPath(vendorSlug, slug, viewerId);
    const rows = await this.dataSource.query(
      `SELECT id, version, archive_sha256, published_at FROM releases
       WHERE listing_id = $1 AND published_at IS NOT NULL`,
      [listing.id],
    );
    rows.sort((a: { version: string }, b: { version: string }) => semver.rcompare(a.version, b.version));
    return rows.map((row: Record<string, unknown>) => ({
      id: row.id as string,
      version: row.version as string,
      archiveSha256: row.archive_sha256 as string,
      publishedAt: new Date(row.published_at as string).toISOString(),
    }));
  }
}

function toRecord(row: Record<string, unknown>): ListingRecord {
  const domainVerified = row.domain_verified as boolean;
  const githubVerified = row.github_verified as boolean;
  return {
    ...toSearchResult(row),
    latestVersion: row.latest_version as string | null,
    tools: row.tools as string[],
    vendor: {
      slug: row.vendor_slug as string,
      displayName: row.vendor_name as string,
      verified: domainVerified || githubVerified,
      domainVerified,
      githubVerified,
      githubOrg: githubVerified ? (row.github_org as string) : null,
    },
    readmeMd: row.readme_md as string | null,
    status: row.status as string,
    serviceEndpoint: row.service_endpoint as string | null,
    serviceProtocol: row.service_protocol as string | null,
    serviceTransport: row.service_transport as string | null,
    pricingModel: row.pricing_model as string,
    perCallCents: row.per_call_cents === null ? null : Number(row.per_call_cents),
    settlementMethods: row.settlement_methods as string[],
    capabilities: row.capabilities as Record<string, unknown> | null,
    agentCard: row.agent_card as Record<string, unknown> | null,
    rating: Number(row.rating),
    ratingCount: Number(row.rating_count),
    createdAt: new Date(row.created_at as string).toISOString(),
    updatedAt: new Date(row.updated_at as string).toISOString(),
  };
}
