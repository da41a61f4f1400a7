import { Query } from '@nestjs/cqrs';
import { SearchResult } from '../../read-models/listing-rows';
import { ListingAddress } from '../../read-models/listings.reader';

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
 * One listing, by its public address or by id, as the viewer (`null`: anonymous) may see it: drafts only to their
 * vendor, private and org-only listings only to their org's members; unlisted ones are reachable.
 */
export class GetListingQuery extends Query<ListingRecord> {
  private constructor(
    readonly address: ListingAddress,
    readonly viewerId: string | null,
  ) {
    super();
  }

  static byPath(vendorSlug: string, slug: string, viewerId: string | null): GetListingQuery {
    return new GetListingQuery({ vendorSlug, slug }, viewerId);
  }

  static byId(listingId: string, viewerId: string | null): GetListingQuery {
    return new GetListingQuery({ listingId }, viewerId);
  }
}
