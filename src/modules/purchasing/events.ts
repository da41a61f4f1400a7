import { defineEventCatalogue } from '../../event-store/event-catalogue';

/** Every event type the purchasing module appends. */
export const PurchasingEvents = defineEventCatalogue('purchasing', {
  /**
   * The order (stream `order-<orderId>`): what was bought, for how much, funded how, and the fee split. Version 2
   * names the spend policies that recorded its spend; a version 1 order named none, so none is given back for it.
   */
  PurchaseMade: { schemaVersion: 2, upcast: (data) => ({ policyIds: [], ...data }) },
  /** A card payment was asked for (the processor's intent); the order stays pending until the processor confirms. */
  OrderCharged: { schemaVersion: 1 },
  OrderPaid: { schemaVersion: 1 },
  OrderPaymentFailed: { schemaVersion: 1 },
  // One stream per buyer and listing, `entitlement-<userId>-<listingId>`, started with `no_stream`.
  /** A card purchase holds the listing while its payment settles, so racing purchases charge once. */
  EntitlementPending: { schemaVersion: 1 },
  EntitlementGranted: { schemaVersion: 1 },
  /** The held card purchase failed: the buyer may try again. */
  EntitlementReleased: { schemaVersion: 1 },
  // One stream per approval, `approval-<id>`: a purchase a spend policy refused, for its owner to decide.
  /** The exact terms the owner is asked to approve: listing, release, price, funding, policy and the rule. */
  PurchaseApprovalRequested: { schemaVersion: 1 },
  /** Appended with the purchase it executed, in the same atomic append: an approval buys once. */
  PurchaseApprovalApproved: { schemaVersion: 1 },
  PurchaseApprovalDeclined: { schemaVersion: 1 },
});
