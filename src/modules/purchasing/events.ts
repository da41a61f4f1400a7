import { defineEventCatalogue } from '../../event-store/event-catalogue';

/** Every event type the purchasing module appends. */
export const PurchasingEvents = defineEventCatalogue('purchasing', {
  /** The order (stream `order-<orderId>`): what was bought, for how much, funded how, and the fee split. */
  PurchaseMade: { schemaVersion: 1 },
  /** One per buyer and listing (stream `entitlement-<userId>-<listingId>`, appended with `no_stream`). */
  EntitlementGranted: { schemaVersion: 1 },
});
