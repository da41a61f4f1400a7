import { defineEventCatalogue } from '../../event-store/event-catalogue';

/** Every event type the billing module appends. */
export const BillingEvents = defineEventCatalogue('billing', {
  /**
   * A verified processor webhook event (stream `pay-event-<processor event id>`), reduced to
   * the fields we act on. Its event id derives from the processor's, so a redelivery stores nothing new.
   */
  PaymentEventReceived: { schemaVersion: 1 },
  // The owner's processor customer, stream `billing-customer-<owner kind>-<owner id>`.
  ProcessorCustomerCreated: { schemaVersion: 1 },
  SetupIntentOpened: { schemaVersion: 1 },
  PaymentMethodSaved: { schemaVersion: 1 },
});
