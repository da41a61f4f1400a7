import { defineEventCatalogue } from '../../event-store/event-catalogue';

/** Every event type the billing module appends. */
export const BillingEvents = defineEventCatalogue('billing', {
  /**
   * A verified processor webhook event (stream `pay-event-<processor event id>`), reduced to
   * the fields we act on. Its event id derives from the processor's, so a redelivery stores nothing new.
   * Version 2 added `account` (the flags of `account.updated`), null in older events.
   */
  PaymentEventReceived: { schemaVersion: 2, upcast: (data) => ({ account: null, ...data }) },
  // The owner's processor customer, stream `billing-customer-<owner kind>-<owner id>`.
  ProcessorCustomerCreated: { schemaVersion: 1 },
  SetupIntentOpened: { schemaVersion: 1 },
  /** The owner was sent to the processor's hosted card form; its setup intent arrives with `setup_intent.succeeded`. */
  CardSetupSessionOpened: { schemaVersion: 1 },
  PaymentMethodSaved: { schemaVersion: 1 },
  /** The card was detached at the processor: no longer listed, nor charged. */
  PaymentMethodRemoved: { schemaVersion: 1 },
  // A vendor's connected account at the processor, stream `connected-account-<vendorId>`.
  ConnectedAccountCreated: { schemaVersion: 1 },
  /** What an `account.updated` reported: the onboarding flags; the newest report wins. */
  ConnectedAccountUpdated: { schemaVersion: 1 },
});
