import { EntityManager } from 'typeorm';
import { ServiceCallEvent } from '../../network/domain/service-call.decider';

export type ServiceCalled = Extract<ServiceCallEvent, { type: 'ServiceCalled' }>;

/**
 * The trust score's service points, from the network's own record of each settled call:
 * the catalog counts them itself, so a rebuild of the catalog alone restores them. An
 * abandoned call says nothing about the service (our process died, not its). An unchanged
 * rate leaves the listing's row, its search index entries and its trust score alone.
 */
export async function applyServiceCalled(e: ServiceCalled, tx: EntityManager): Promise<void> {
  const { listingId, outcome } = e.data;
  if (outcome === 'abandoned') return;
  await tx.query(
    `WITH counted AS (
       INSERT INTO listing_service_calls (listing_id, settled_calls, successes) VALUES ($1, 1, $2)
       ON CONFLICT (listing_id) DO UPDATE SET settled_calls = listing_service_calls.settled_calls + 1,
         successes = listing_service_calls.successes + EXCLUDED.successes
       RETURNING listing_id, successes::double precision / settled_calls AS rate
     )
     UPDATE listings l SET service_success_rate = c.rate FROM counted c
      WHERE l.id = c.listing_id AND l.service_success_rate IS DISTINCT FROM c.rate`,
    [listingId, outcome === 'success' ? 1 : 0],
  );
}
