import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { EventStore } from '../../../event-store/event-store';
import { foldStream } from '../../../event-store/fold-stream';
import { DomainError } from '../../../platform/errors/domain-error';
import { isUuid } from '../../../platform/ids';
import { listingStreamId } from '../../catalog/domain/listing.decider';
import { sessionDecider, SessionState, sessionStreamId } from '../domain/session.decider';
import { ServiceTerms, serviceTermsOf } from '../domain/service-terms';

export interface ServiceListing {
  terms: ServiceTerms & { endpoint: string };
  vendorSlug: string;
  slug: string;
}

/**
 * Finds listings with a live service by address (the catalog's read model)
 * and reads their terms from the listing's stream, so a call is priced and
 * routed by what the vendor last decided, never by a lagging read model.
 */
@Injectable()
export class ServiceDirectory {
  constructor(
    private readonly store: EventStore,
    private readonly dataSource: DataSource,
  ) {}

  /** 404 unless the listing exists, is not a draft and has a service endpoint. */
  async require(vendorSlug: string, slug: string): Promise<ServiceListing> {
    const [row] = await this.dataSource.query(
      `SELECT l.id FROM listings l JOIN catalog_vendors v ON v.vendor_id = l.vendor_id WHERE v.slug = $1 AND l.slug = $2`,
      [vendorSlug, slug],
    );
    const terms = row ? await this.terms(row.id) : null;
    if (!terms || terms.status === 'draft' || !terms.endpoint)
      throw new DomainError('not_found', 'No live service at this address');
    return { terms: terms as ServiceTerms & { endpoint: string }, vendorSlug, slug };
  }

  async terms(listingId: string): Promise<ServiceTerms | null> {
    return serviceTermsOf(await this.store.readStream(listingStreamId(listingId)));
  }

  /** The session's state; `none` for an id that is not a session's. */
  async session(sessionId: string): Promise<{ state: SessionState; revision: number }> {
    if (!isUuid(sessionId)) return { state: { status: 'none' }, revision: -1 };
    return foldStream(this.store, sessionStreamId(sessionId), sessionDecider.evolve, sessionDecider.initialState);
  }
}
