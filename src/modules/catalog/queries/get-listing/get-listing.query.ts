import { Query } from '@nestjs/cqrs';
import { SearchResult } from '../../read-models/listing-rows';

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

/**
 * One listing, by its public address (drafts only to their vendor; unlisted
 * ones are reachable) or by id (for its vendor, who has just changed it).
 */
export class GetListingQuery extends Query<ListingRecord> {
  private constructor(readonly by: { vendorSlug: string; slug: string; viewerId: string | null } | { listingId: string }) {
    super();
  }

  static byPath(vendorSlug: string, slug: string, viewerId: string | null): GetListingQuery {
    return new GetListingQuery({ vendorSlug, slug, viewerId });
  }

  static byId(listingId: string): GetListingQuery {
    return new GetListingQuery({ listingId });
  }
}
