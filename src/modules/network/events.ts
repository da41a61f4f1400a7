import { defineEventCatalogue } from '../../event-store/event-catalogue';

/**
 * Every event type the agent network appends. Calls never carry the input or
 * the result of a tool: only who called what, the cost, the outcome and the time.
 */
export const NetworkEvents = defineEventCatalogue('network', {
  // One stream per metered call, `service-call-<callId>`; the wallet debit is appended with the reservation.
  ServiceCallReserved: { schemaVersion: 1 },
  /** The call settled: charged (`success`) or released with a refund credit (every other outcome). */
  ServiceCalled: { schemaVersion: 1 },
  // One stream per listing's probes, `service-probes-<listingId>`.
  ServiceProbed: { schemaVersion: 1 },
  // One stream per session, `session-<id>`.
  SessionOpened: { schemaVersion: 1 },
  SessionMessageSent: { schemaVersion: 1 },
  SessionClosed: { schemaVersion: 1 },
});
