import { UpstreamError } from '../../../platform/errors/upstream-error';

/**
 * The payment processor, as the service uses it. Two adapters: `stripe` (the
 * official SDK) and `sandbox` (intents kept in our own database, settled by a
 * signed webhook to ourselves). Amounts are integer cents in `usd`.
 *
 * Every call that creates something takes an `idempotencyKey` derived from our
 * command or event id: a retried call returns what the first one created.
 */
export abstract class PaymentGateway {
  abstract readonly name: 'stripe' | 'sandbox';

  /** A processor customer for one of our wallet owners. */
  abstract createCustomer(request: CreateCustomer): Promise<{ customerId: string }>;

  /** An intent the client confirms with its `clientSecret` (a wallet top-up). */
  abstract createPaymentIntent(request: CreatePaymentIntent): Promise<PaymentIntent>;

  /**
   * Creates and confirms an intent off-session against a saved method (auto
   * top-up). A decline is not thrown: it answers `status: 'failed'` with the reason.
   */
  abstract chargeOffSession(request: ChargeOffSession): Promise<PaymentIntent>;

  /** An intent to save a card for later off-session charges. */
  abstract createSetupIntent(request: CreateSetupIntent): Promise<SetupIntent>;

  /**
   * A processor-hosted page where the customer types a card to save for
   * off-session charges; the processor then sends `setup_intent.succeeded`
   * for an intent carrying `setupIntentMetadata`, as a `createSetupIntent` one would.
   * The sandbox has no such page: its link leads straight back to `cancelUrl`
   * with `sandbox=1`, where the web app shows its own test-card form.
   */
  abstract createCardSetupSession(request: CreateCardSetupSession): Promise<CardSetupSession>;

  /** A saved card; only the fields we may show. */
  abstract retrievePaymentMethod(paymentMethodId: string): Promise<CardPaymentMethod>;

  abstract listPaymentMethods(customerId: string): Promise<CardPaymentMethod[]>;

  /** A page where the customer manages their saved methods. */
  abstract createPortalSession(request: CreatePortalSession): Promise<{ url: string }>;

  /**
   * A connected account (the processor's Express kind) a vendor is paid out to, tagged with the vendor's id in its
   * metadata (`vendorId`), which its `account.updated` events carry back. Onboarding is not complete until such an
   * event reports charges enabled and details submitted.
   */
  abstract createConnectedAccount(request: CreateConnectedAccount): Promise<{ accountId: string }>;

  /** A single-use page where the vendor gives the processor what onboarding needs. */
  abstract createAccountLink(request: CreateAccountLink): Promise<{ url: string }>;

  /** A single-use sign-in to the processor's dashboard of an onboarded account (payouts, balances). */
  abstract createLoginLink(accountId: string): Promise<{ url: string }>;

  /** Every succeeded intent created in the window (all pages), for finance to reconcile our credits against. */
  abstract listSucceededPaymentIntents(window?: TimeWindow): Promise<SucceededPaymentIntent[]>;
}

/** Inclusive bounds; either may be left open. */
export interface TimeWindow {
  from?: Date;
  to?: Date;
}

export interface SucceededPaymentIntent {
  id: string;
  amountCents: number;
  /** Our tags: `purpose` (`top_up`, `auto_top_up`, `purchase`), `topUpId` or `orderId`. */
  metadata: Record<string, string>;
  createdAt: string;
}

export const CURRENCY = 'usd';

export interface CreateCustomer {
  /** Our owner, kept in the processor's metadata (`ownerId`). */
  ownerId: string;
  idempotencyKey: string;
}

export interface CreateConnectedAccount {
  /** Our vendor (the vendor's user id), kept in the account's metadata (`vendorId`). */
  vendorId: string;
  idempotencyKey: string;
}

export interface CreateAccountLink {
  accountId: string;
  /** Where the processor sends the vendor when the link has expired or was already used: ask for a new one there. */
  refreshUrl: string;
  /** Where the processor sends the vendor when they leave onboarding (finished or not). */
  returnUrl: string;
}

export interface CreatePaymentIntent {
  amountCents: number;
  customerId?: string;
  /** Strings only; the adapters send them as the processor's metadata and webhooks carry them back. */
  metadata: Record<string, string>;
  description?: string;
  idempotencyKey: string;
}

export interface ChargeOffSession extends CreatePaymentIntent {
  customerId: string;
  paymentMethodId: string;
}

export interface CreatePortalSession {
  customerId: string;
  returnUrl: string;
  /** The command's: the SDK's own retries of this call make one session. */
  idempotencyKey?: string;
}

export interface CreateSetupIntent {
  customerId: string;
  metadata: Record<string, string>;
  idempotencyKey: string;
}

export interface CreateCardSetupSession {
  customerId: string;
  /** Where the customer lands once the card is saved (it may not be listed yet: the webhook saves it). */
  successUrl: string;
  /** Where the customer lands on leaving the page without a card. */
  cancelUrl: string;
  /** Ours, on the session itself (`ownerId`). */
  metadata: Record<string, string>;
  /** On the setup intent the page creates: the saga finds the owner there (`ownerKind`, `ownerId`). */
  setupIntentMetadata: Record<string, string>;
  idempotencyKey: string;
}

export interface CardSetupSession {
  /** `cs_...` in Stripe. */
  id: string;
  url: string;
}

export interface PaymentIntent {
  /** `pi_...` */
  id: string;
  /** `<id>_secret_<random>`, the processor's form, in both adapters. */
  clientSecret: string;
  amountCents: number;
  /** `failed` stands for a declined off-session charge (`failureMessage` says why). */
  status:
    'requires_payment_method' | 'requires_confirmation' | 'requires_action' | 'processing' | 'succeeded' | 'canceled' | 'failed';
  failureMessage?: string;
}

export interface SetupIntent {
  /** `seti_...` */
  id: string;
  clientSecret: string;
}

/** A type, not an interface, so it can stand in event payloads. */
export type CardPaymentMethod = {
  id: string;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
};

/** The processor could not be reached or refused a call we made correctly: a 502 for the client, a retry for a job. */
export class PaymentGatewayError extends UpstreamError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('The payment processor could not complete the request', message, options);
    this.name = 'PaymentGatewayError';
  }
}
