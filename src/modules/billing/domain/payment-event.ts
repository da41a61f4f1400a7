import { DomainError } from '../../../platform/errors/domain-error';
import { BillingEvents } from '../events';

/** The processor event types we act on; others are acknowledged and dropped. */
export const HANDLED_PAYMENT_EVENT_TYPES = [
  'payment_intent.succeeded',
  'payment_intent.payment_failed',
  /** Canceled before it was paid: for us, a failure like any other. */
  'payment_intent.canceled',
  'setup_intent.succeeded',
  /** A card removed (in the processor's customer portal, say): no longer listed, nor charged. */
  'payment_method.detached',
  // A vendor's connected account changed: onboarding progress (charges enabled, details submitted).
  'account.updated',
] as const;
export type HandledPaymentEventType = (typeof HANDLED_PAYMENT_EVENT_TYPES)[number];

export interface PaymentEventReceived {
  type: typeof BillingEvents.PaymentEventReceived;
  data: {
    processorEventId: string;
    eventType: HandledPaymentEventType;
    /** The object the event is about: an intent (`pi_...`, `seti_...`) or a connected account (`acct_...`). */
    objectId: string;
    amountCents: number | null;
    customerId: string | null;
    paymentMethodId: string | null;
    /** Our own tags, set when we created the object (`topUpId`, `ownerKind`, `ownerId`; an account's `vendorId`). */
    metadata: Record<string, string>;
    failureMessage: string | null;
    /** `account.updated` only (null otherwise, and in events stored before schema version 2): the onboarding flags. */
    account: ConnectedAccountFlags | null;
    /** When the processor created the event. */
    occurredAt: string;
  };
}

export interface ConnectedAccountFlags {
  chargesEnabled: boolean;
  detailsSubmitted: boolean;
  payoutsEnabled: boolean;
}

export const paymentEventStreamId = (processorEventId: string): string => `pay-event-${processorEventId}`;

const PROCESSOR_ID = /^[A-Za-z0-9_-]{1,255}$/;

/**
 * The processor's event (a snapshot event: `{id, type, created, data: {object}}`)
 * reduced to what we store, or null for a type we do not handle. Anything that
 * is not that shape is a 400: we never guess at a payment.
 */
export function readPaymentEvent(body: unknown): PaymentEventReceived['data'] | null {
  if (!isRecord(body)) throw notAnEvent('the body is not a JSON object');
  const { id, type, created, data } = body;
  if (typeof id !== 'string' || !PROCESSOR_ID.test(id)) throw notAnEvent('id is missing or malformed');
  if (typeof type !== 'string' || type.length === 0 || type.length > 255) throw notAnEvent('type is missing');
  // Unix seconds; past the year 5000 is no event of the processor's (and no Date can hold much more).
  if (typeof created !== 'number' || !Number.isSafeInteger(created) || created < 0 || created > 95_617_584_000)
    throw notAnEvent('created is missing or not a time');
  if (!isRecord(data) || !isRecord(data.object)) throw notAnEvent('data.object is missing');
  if (!(HANDLED_PAYMENT_EVENT_TYPES as readonly string[]).includes(type)) return null;
  const object = data.object;
  if (typeof object.id !== 'string' || !PROCESSOR_ID.test(object.id)) throw notAnEvent('data.object.id is missing');
  const amount = object.amount;
  if (type.startsWith('payment_intent.') && (typeof amount !== 'number' || !Number.isSafeInteger(amount) || amount < 0))
    throw notAnEvent('data.object.amount is not an integer number of cents');
  const account = type === 'account.updated' ? accountFlagsOf(object) : null;
  return {
    processorEventId: id,
    eventType: type as HandledPaymentEventType,
    objectId: object.id,
    amountCents: typeof amount === 'number' ? amount : null,
    customerId: idOf(object.customer),
    paymentMethodId: type === 'payment_method.detached' ? object.id : idOf(object.payment_method),
    metadata: stringsOf(object.metadata),
    failureMessage:
      type === 'payment_intent.canceled'
        ? `The payment was canceled${typeof object.cancellation_reason === 'string' ? ` (${object.cancellation_reason.slice(0, 100)})` : ''}`
        : failureOf(object.last_payment_error ?? object.last_setup_error),
    account,
    occurredAt: new Date(created * 1000).toISOString(),
  };
}

/** The processor always sends both onboarding flags of an account; without them we could only guess. */
function accountFlagsOf(object: Record<string, unknown>): ConnectedAccountFlags {
  const { charges_enabled: chargesEnabled, details_submitted: detailsSubmitted, payouts_enabled: payoutsEnabled } = object;
  if (typeof chargesEnabled !== 'boolean' || typeof detailsSubmitted !== 'boolean')
    throw notAnEvent('data.object.charges_enabled and details_submitted must be booleans');
  return { chargesEnabled, detailsSubmitted, payoutsEnabled: payoutsEnabled === true };
}

/** The processor sends either an id or, when expanded, the object with its id. */
function idOf(value: unknown): string | null {
  if (typeof value === 'string' && PROCESSOR_ID.test(value)) return value;
  if (isRecord(value) && typeof value.id === 'string' && PROCESSOR_ID.test(value.id)) return value.id;
  return null;
}

function stringsOf(value: unknown): Record<string, string> {
  if (!isRecord(value)) return {};
  const strings: Record<string, string> = {};
  for (const [key, entry] of Object.entries(value)) if (typeof entry === 'string') strings[key] = entry.slice(0, 500);
  return strings;
}

function failureOf(value: unknown): string | null {
  if (!isRecord(value)) return null;
  return typeof value.message === 'string' ? value.message.slice(0, 500) : 'The payment failed';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function notAnEvent(problem: string): DomainError {
  return new DomainError('invalid', `Not a payment processor event: ${problem}`);
}
