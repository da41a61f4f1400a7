import { Injectable } from '@nestjs/common';
import { EventStore } from '../../../event-store/event-store';
import { foldStream } from '../../../event-store/fold-stream';
import { DomainError } from '../../../platform/errors/domain-error';
import { isUuid } from '../../../platform/ids';
import { listingStreamId } from '../../catalog/domain/listing.decider';
import { ListingsReader } from '../../catalog/read-models/listings.reader';
import { sessionDecider, SessionState, sessionStreamId } from '../domain/session.decider';
import { ServiceTerms, serviceTermsOf } from '../domain/service-terms';

export interface ServiceListing {
  terms: ServiceTerms & { endpoint: string };
  vendorSlug: string;
  slug: string;
}

const noService = (): DomainError => new DomainError('not_found', 'No live service at this address');

/**
 * Finds listings with a live service for a caller, through the catalog's
 * `ListingsReader` (so the listing's visibility applies: a private listing is
 * no service at all to an outsider), and reads their terms from the listing's
 * stream, so a call is priced and routed by what the vendor last decided,
 * never by a lagging read model.
 */
@Injectable()
export class ServiceDirectory {
  constructor(
    private readonly store: EventStore,
    private readonly listings: ListingsReader,
  ) {}

  /**
   * The live service at an address, for the caller about to use it. 404, always alike, unless the listing exists,
   * the caller may see it, it is not a draft and it has a service endpoint.
   */
  async require(vendorSlug: string, slug: string, callerId: string): Promise<ServiceListing> {
    const listing = await this.listings.find({ vendorSlug, slug }, callerId);
    const terms = listing ? await this.termsOf(listing.id) : null;
    if (!listing || !terms || terms.status === 'draft' || !terms.endpoint) throw noService();
    return { terms: terms as ServiceTerms & { endpoint: string }, vendorSlug: listing.vendorSlug, slug: listing.slug };
  }

  /**
   * The terms of a session's listing, for a message its buyer sends now: 404 as above once the buyer may no longer
   * see the listing. A service that has lost its endpoint still has terms (the message then waits in the inbox).
   */
  async forSession(listingId: string, buyerId: string): Promise<ServiceTerms> {
    const listing = await this.listings.find({ listingId }, buyerId);
    const terms = listing ? await this.termsOf(listing.id) : null;
    if (!terms) throw noService();
    return terms;
  }

  /** For the service's own health probes, which answer no caller: the terms whoever may see the listing. */
  forProbe(listingId: string): Promise<ServiceTerms | null> {
    return this.termsOf(listingId);
  }

  /** The session's state; `none` for an id that is not a session's. */
  async session(sessionId: string): Promise<{ state: SessionState; revision: number }> {
    if (!isUuid(sessionId)) return { state: { status: 'none' }, revision: -1 };
    return foldStream(this.store, sessionStreamId(sessionId), sessionDecider.evolve, sessionDecider.initialState);
  }

  private async termsOf(listingId: string): Promise<ServiceTerms | null> {
    return serviceTermsOf(await this.store.readStream(listingStreamId(listingId)));
  }
}
