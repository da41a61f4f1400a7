import { defineEventCatalogue } from '../../../event-store/event-catalogue';

/**
 * The answer to a request sent with an `Idempotency-Key`, on the key's own
 * stream (`idempotency-<scope key>`), appended in the same atomic append as
 * the events the request decided. The body is sealed with the caller's
 * personal-data key: it may hold a client secret, and a deleted account's
 * answers become unreadable with the rest of its data.
 */
export const IdempotencyEvents = defineEventCatalogue('idempotency', {
  IdempotentRequestAnswered: { schemaVersion: 1 },
});

export interface IdempotentRequestAnswered {
  type: typeof IdempotencyEvents.IdempotentRequestAnswered;
  data: {
    /** SHA-256 of method, path and canonical JSON body. */
    fingerprint: string;
    status: number;
    /** The JSON body, sealed; reads back opened (or null once the owner's data is shredded). */
    body: string | null;
    answeredAt: string;
  };
}
