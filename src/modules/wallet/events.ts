import { defineEventCatalogue } from '../../event-store/event-catalogue';

/**
 * Every event type the wallet module appends. Money events carry `amountCents`
 * (signed: negative for a deduction) and `balanceAfterCents`, and take ids
 * derived from their cause, so a retried cause appends nothing new.
 */
export const WalletEvents = defineEventCatalogue('wallet', {
  // The wallet stream, `wallet-<owner kind>-<owner id>`.
  WalletToppedUp: { schemaVersion: 1 },
  /** Every deduction: purchases and metered usage, told apart by `reason`. */
  WalletDebited: { schemaVersion: 1 },
  /** Money given back (refunds). */
  WalletCredited: { schemaVersion: 1 },
  AutoTopUpConfigured: { schemaVersion: 1 },
  /** A debit left the balance below the threshold: the auto top-up saga charges the saved method once. */
  AutoTopUpRequested: { schemaVersion: 1 },
  /** The charge could not be made or was declined; the next debit below the threshold may ask again. */
  AutoTopUpFailed: { schemaVersion: 1 },
  // One stream per top-up, `top-up-<topUpId>`: our record of the payment intent that funds it.
  TopUpRequested: { schemaVersion: 1 },
  /** The processor's intent for the top-up: one the client confirms, or an auto top-up's off-session charge. */
  TopUpCharged: { schemaVersion: 1 },
  TopUpSucceeded: { schemaVersion: 1 },
  TopUpFailed: { schemaVersion: 1 },
  /** The processor reported a payment for an intent we never created: kept for finance, never credited. */
  UnmatchedPaymentRecorded: { schemaVersion: 1 },
});
