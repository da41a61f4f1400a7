import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { EventStore } from '../../../../event-store/event-store';
import { foldStream } from '../../../../event-store/fold-stream';
import { DomainError } from '../../../../platform/errors/domain-error';
import { listingDecider, ListingEvent, ListingState, listingStreamId } from '../../domain/listing.decider';
import { listingNotFound, ListingsReader } from '../../read-models/listings.reader';
import { GetPurchaseTermsQuery, PurchaseTerms } from './get-purchase-terms.query';

/**
 * The price, status and releases come from the listing's stream, so a
 * purchase never pays a price a read model has not caught up with; titles and
 * slugs (what a receipt shows) from the read model.
 */
@QueryHandler(GetPurchaseTermsQuery)
export class GetPurchaseTermsHandler implements IQueryHandler<GetPurchaseTermsQuery, PurchaseTerms> {
  constructor(
    private readonly store: EventStore,
    private readonly listings: ListingsReader,
  ) {}

  async execute({ listingId, releaseId, buyerId }: GetPurchaseTermsQuery): Promise<PurchaseTerms> {
    // Judged before anything else, so no answer about its releases tells someone the listing exists.
    const listing = await this.listings.require({ listingId }, buyerId);
    const { state } = await foldStream<ListingState, ListingEvent>(
      this.store,
      listingStreamId(listingId),
      listingDecider.evolve,
      listingDecider.initialState,
    );
    if (!state.exists || state.status === 'draft') throw listingNotFound();
    const releases = Object.entries(state.releases);
    const chosen = releaseId
      ? releases.find(([id, release]) => id === releaseId && release.published)
      : releases.find(([, release]) => release.published && release.version === state.latestVersion);
    if (!chosen) throw new DomainError('not_found', 'Release not found: not a published release of this listing');
    const [id, release] = chosen;
    return {
      listingId,
      releaseId: id,
      version: release.version,
      archiveSha256: release.archiveSha256,
      vendorId: state.vendorId,
      vendorSlug: listing.vendorSlug,
      vendorName: listing.vendorName,
      listingSlug: listing.slug,
      listingTitle: listing.title,
      listingType: state.type,
      priceCents: state.priceCents,
    };
  }
}
