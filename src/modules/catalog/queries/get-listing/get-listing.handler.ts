import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { toSearchResult } from '../../read-models/listing-rows';
import { listingNotFound, ListingsReader } from '../../read-models/listings.reader';
import { GetListingQuery, ListingRecord } from './get-listing.query';

const SELECT_LISTING = `
  SELECT l.*, v.slug AS vendor_slug, v.domain_verified, v.github_verified, v.github_org
  FROM listings l JOIN catalog_vendors v ON v.vendor_id = l.vendor_id WHERE l.id = $1`;

@QueryHandler(GetListingQuery)
export class GetListingHandler implements IQueryHandler<GetListingQuery, ListingRecord> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly listings: ListingsReader,
  ) {}

  async execute({ address, viewerId }: GetListingQuery): Promise<ListingRecord> {
    const { id } = await this.listings.require(address, viewerId);
    const [row] = await this.dataSource.query(SELECT_LISTING, [id]);
    if (!row) throw listingNotFound();
    return toRecord(row);
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
