import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { PreparedStatements } from '../../../../platform/database/prepared-statements';
import { mayView } from '../../read-models/listings.reader';
import { EventStore } from '../../../../event-store/event-store';
import { foldStream } from '../../../../event-store/fold-stream';
import { DomainError } from '../../../../platform/errors/domain-error';
import { isUuid } from '../../../../platform/ids';
import { listingDecider, ListingEvent, ListingState, listingStreamId } from '../../domain/listing.decider';
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
    private readonly dataSource: DataSource,
    private readonly prepared: PreparedStatements,
  ) {}

  async execute({ listingId, releaseId, buyerId }: GetPurchaseTermsQuery): Promise<PurchaseTerms> {
    if (!isUuid(listingId)) throw listingNotFound();
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
    // Every purchase asks: planned once per connection.
    const [row] = await this.prepared.query<TermsRow>(
      `SELECT l.slug, l.title, l.status, l.vendor_id, l.visibility, v.org_id, v.slug AS vendor_slug, v.display_name AS vendor_name
         FROM listings l JOIN catalog_vendors v ON v.vendor_id = l.vendor_id WHERE l.id = $1`,
      [listingId],
    );
    if (!row || (buyerId !== undefined && !(await mayView(this.dataSource, row, buyerId)))) throw listingNotFound();
    const [id, release] = chosen;
    return {
      listingId,
      releaseId: id,
      version: release.version,
      archiveSha256: release.archiveSha256,
      vendorId: state.vendorId,
      vendorSlug: row.vendor_slug,
      vendorName: row.vendor_name,
      listingSlug: row.slug,
      listingTitle: row.title,
      listingType: state.type,
      priceCents: state.priceCents,
    };
  }
}

/** What a receipt shows, and what mayView needs. */
type TermsRow = {
  slug: string;
  title: string;
  status: string;
  vendor_id: string;
  visibility: string;
  org_id: string | null;
  vendor_slug: string;
  vendor_name: string;
};

function listingNotFound(): DomainError {
  return new DomainError('not_found', 'Listing not found');
}
