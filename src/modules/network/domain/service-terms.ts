import {
  ListingChanges,
  PricingModel,
  ServiceProtocol,
  ServiceTransport,
  SettlementMethod,
} from '../../catalog/domain/listing-fields';
import { ListingEvent } from '../../catalog/domain/listing.decider';
import { CatalogEvents } from '../../catalog/events';

/** A listing's live service as its stream says (never a read model): what a call is priced and routed by. */
export interface ServiceTerms {
  listingId: string;
  vendorId: string;
  status: string;
  endpoint: string | null;
  protocol: ServiceProtocol | null;
  transport: ServiceTransport | null;
  pricingModel: PricingModel;
  perCallCents: number | null;
  settlementMethods: SettlementMethod[];
}

/** Folds a listing's events into its service terms; null for a listing that does not exist. */
export function serviceTermsOf(events: { type: string; data: unknown }[]): ServiceTerms | null {
  let terms = null as ServiceTerms | null;
  for (const event of events as ListingEvent[]) {
    if (event.type === CatalogEvents.ListingCreated) {
      terms = {
        listingId: event.data.listingId,
        vendorId: event.data.vendorId,
        status: 'draft',
        endpoint: null,
        protocol: null,
        transport: null,
        pricingModel: 'one_time',
        perCallCents: null,
        settlementMethods: [],
      };
    } else if (terms && event.type === CatalogEvents.ListingUpdated) {
      const c: ListingChanges = event.data.changes;
      const before: ServiceTerms = terms;
      terms = {
        ...before,
        status: c.status ?? terms.status,
        endpoint: c.serviceEndpoint !== undefined ? c.serviceEndpoint : terms.endpoint,
        protocol: c.serviceProtocol !== undefined ? c.serviceProtocol : terms.protocol,
        transport: c.serviceTransport !== undefined ? c.serviceTransport : terms.transport,
        pricingModel: c.pricingModel ?? terms.pricingModel,
        perCallCents: c.perCallCents !== undefined ? c.perCallCents : terms.perCallCents,
        settlementMethods: c.settlementMethods ?? terms.settlementMethods,
      };
    } else if (terms && event.type === CatalogEvents.ReleasePublished && terms.status === 'draft') {
      terms = { ...(terms as ServiceTerms), status: 'published' };
    }
  }
  return terms;
}

/** What one call costs: the per-call price of a metered listing, nothing otherwise. */
export const callCostCents = (terms: ServiceTerms): number => (terms.pricingModel === 'metered' ? (terms.perCallCents ?? 0) : 0);
