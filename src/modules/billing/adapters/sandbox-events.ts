import Stripe from 'stripe';
import { PaymentIntent } from '../domain/payment-gateway';

/**
 * The processor's objects and events as the sandbox renders them. Each type
 * picks its fields from the processor's SDK types, so a field the sandbox
 * fills in has the processor's name and type: the webhook route parses
 * sandbox and processor events with the same code.
 */
export type SandboxPaymentIntentObject = Pick<
  Stripe.PaymentIntent,
  | 'id'
  | 'object'
  | 'amount'
  | 'amount_capturable'
  | 'amount_received'
  | 'capture_method'
  | 'client_secret'
  | 'confirmation_method'
  | 'created'
  | 'currency'
  | 'customer'
  | 'description'
  | 'last_payment_error'
  | 'livemode'
  | 'metadata'
  | 'payment_method'
  | 'payment_method_types'
  | 'setup_future_usage'
  | 'status'
>;

export type SandboxSetupIntentObject = Pick<
  Stripe.SetupIntent,
  | 'id'
  | 'object'
  | 'client_secret'
  | 'created'
  | 'customer'
  | 'description'
  | 'last_setup_error'
  | 'livemode'
  | 'metadata'
  | 'payment_method'
  | 'payment_method_types'
  | 'status'
  | 'usage'
>;

export type SandboxAccountObject = Pick<
  Stripe.Account,
  'id' | 'object' | 'type' | 'charges_enabled' | 'details_submitted' | 'payouts_enabled' | 'email'
> &
  Required<Pick<Stripe.Account, 'country' | 'created' | 'default_currency' | 'metadata'>>;

type EventEnvelope = Pick<
  Stripe.EventBase,
  'id' | 'object' | 'api_version' | 'created' | 'livemode' | 'pending_webhooks' | 'request'
>;

export type SandboxEvent = EventEnvelope &
  (
    | { type: 'payment_intent.succeeded' | 'payment_intent.payment_failed'; data: { object: SandboxPaymentIntentObject } }
    | { type: 'setup_intent.succeeded' | 'setup_intent.setup_failed'; data: { object: SandboxSetupIntentObject } }
    // A Connect event names the connected account it is about.
    | { type: 'account.updated'; account: string; data: { object: SandboxAccountObject } }
  );

/** A settled event with its serialized body and the `pay-signature` header that signs that body. */
export interface SignedSandboxEvent {
  event: SandboxEvent;
  payload: string;
  signature: string;
}

/** `sandbox_payment_intents` as node-postgres reads it. */
export interface PaymentIntentRow {
  id: string;
  client_secret: string;
  amount_cents: number;
  currency: string;
  customer_id: string | null;
  payment_method_id: string | null;
  description: string | null;
  metadata: Record<string, string>;
  status: PaymentIntent['status'];
  failure_message: string | null;
  /** A card's decline: the processor's error code (`card_declined`) and decline code; null for a refusal. */
  failure_code: string | null;
  decline_code: string | null;
  /** The test card the customer typed to confirm it; null: the 4242 Visa (or an off-session charge). */
  card_number: string | null;
  off_session: boolean;
  idempotency_key: string;
  created_at: Date;
  event_id: string | null;
  settled_at: Date | null;
}

/** `sandbox_setup_intents` as node-postgres reads it. */
export interface SetupIntentRow {
  id: string;
  client_secret: string;
  customer_id: string;
  payment_method_id: string | null;
  metadata: Record<string, string>;
  /** `failed`: its card was declined (the processor shows it back at `requires_payment_method`, with the error). */
  status: 'requires_payment_method' | 'succeeded' | 'failed';
  card_number: string | null;
  failure_message: string | null;
  failure_code: string | null;
  decline_code: string | null;
  idempotency_key: string;
  created_at: Date;
  event_id: string | null;
  settled_at: Date | null;
}

/** `sandbox_connected_accounts` as node-postgres reads it. */
export interface ConnectedAccountRow {
  id: string;
  vendor_id: string;
  charges_enabled: boolean;
  details_submitted: boolean;
  payouts_enabled: boolean;
  idempotency_key: string;
  created_at: Date;
  event_id: string | null;
  settled_at: Date | null;
}

export function paymentIntentObject(row: PaymentIntentRow): SandboxPaymentIntentObject {
  const succeeded = row.status === 'succeeded';
  return {
    id: row.id,
    object: 'payment_intent',
    amount: row.amount_cents,
    amount_capturable: 0,
    amount_received: succeeded ? row.amount_cents : 0,
    capture_method: 'automatic',
    client_secret: row.client_secret,
    confirmation_method: 'automatic',
    created: unixSeconds(row.created_at),
    currency: row.currency,
    customer: row.customer_id,
    description: row.description,
    // The processor reports a decline as an intent back at requires_payment_method with the error.
    last_payment_error: row.status === 'failed' ? cardError(row) : null,
    livemode: false,
    metadata: row.metadata,
    payment_method: row.payment_method_id,
    payment_method_types: ['card'],
    setup_future_usage: null,
    status: row.status === 'failed' ? 'requires_payment_method' : row.status,
  };
}

export function setupIntentObject(row: SetupIntentRow): SandboxSetupIntentObject {
  return {
    id: row.id,
    object: 'setup_intent',
    client_secret: row.client_secret,
    created: unixSeconds(row.created_at),
    customer: row.customer_id,
    description: null,
    last_setup_error: row.status === 'failed' ? cardError(row) : null,
    livemode: false,
    metadata: row.metadata,
    payment_method: row.payment_method_id,
    payment_method_types: ['card'],
    status: row.status === 'failed' ? 'requires_payment_method' : row.status,
    usage: 'off_session',
  };
}

/** The processor's card error: `type`, `code` and `decline_code` (absent for a refusal), and the message. */
function cardError(row: {
  failure_message: string | null;
  failure_code: string | null;
  decline_code: string | null;
}): Stripe.PaymentIntent.LastPaymentError {
  return {
    type: 'card_error',
    ...(row.failure_code ? { code: row.failure_code as Stripe.PaymentIntent.LastPaymentError.Code } : {}),
    ...(row.decline_code ? { decline_code: row.decline_code } : {}),
    message: row.failure_message ?? undefined,
  };
}

/** A settled top-up or off-session charge, as the processor announces it. */
export function paymentIntentSucceeded(row: PaymentIntentRow): SandboxEvent {
  return { ...envelopeOf(row), type: 'payment_intent.succeeded', data: { object: paymentIntentObject(row) } };
}

/** An intent its card declined (a top-up confirmed with it, or an off-session charge), as the processor announces it. */
export function paymentIntentFailed(row: PaymentIntentRow): SandboxEvent {
  return { ...envelopeOf(row), type: 'payment_intent.payment_failed', data: { object: paymentIntentObject(row) } };
}

/** A setup intent its card declined: nothing saved, as the processor announces it. */
export function setupIntentFailed(row: SetupIntentRow): SandboxEvent {
  return { ...envelopeOf(row), type: 'setup_intent.setup_failed', data: { object: setupIntentObject(row) } };
}

/** A settled setup intent, its card saved: as the processor announces it. */
export function setupIntentSucceeded(row: SetupIntentRow): SandboxEvent {
  return { ...envelopeOf(row), type: 'setup_intent.succeeded', data: { object: setupIntentObject(row) } };
}

export function accountObject(row: ConnectedAccountRow): SandboxAccountObject {
  return {
    id: row.id,
    object: 'account',
    type: 'express',
    charges_enabled: row.charges_enabled,
    details_submitted: row.details_submitted,
    payouts_enabled: row.payouts_enabled,
    email: null,
    country: 'US',
    created: unixSeconds(row.created_at),
    default_currency: 'usd',
    metadata: { vendorId: row.vendor_id },
  };
}

/** A connected account whose onboarding the sandbox completed, as the processor announces it. */
export function accountUpdated(row: ConnectedAccountRow): SandboxEvent {
  return { ...envelopeOf(row), type: 'account.updated', account: row.id, data: { object: accountObject(row) } };
}

/** Built only from what the settlement stored with the intent, so every delivery of one event is the same. */
function envelopeOf(row: { id: string; event_id: string | null; settled_at: Date | null }): EventEnvelope {
  if (!row.event_id || !row.settled_at) throw new Error(`${row.id} is not settled`);
  return {
    id: row.event_id,
    object: 'event',
    api_version: Stripe.API_VERSION,
    created: unixSeconds(row.settled_at),
    livemode: false,
    pending_webhooks: 1,
    // No API request of ours caused it: the sandbox settles by itself, as a customer's confirmation would.
    request: { id: null, idempotency_key: null },
  };
}

function unixSeconds(at: Date): number {
  return Math.floor(at.getTime() / 1000);
}
