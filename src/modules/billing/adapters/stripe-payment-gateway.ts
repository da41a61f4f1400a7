import Stripe from 'stripe';
import {
  CardPaymentMethod,
  CardSetupSession,
  ChargeOffSession,
  CreateAccountLink,
  CreateCardSetupSession,
  CreateConnectedAccount,
  CreateCustomer,
  CreatePaymentIntent,
  CreatePortalSession,
  CreateSetupIntent,
  CURRENCY,
  PaymentGateway,
  PaymentGatewayError,
  PaymentIntent,
  SetupIntent,
  SucceededPaymentIntent,
  TimeWindow,
} from '../domain/payment-gateway';

const TIMEOUT_MS = 20_000;
/**
 * The SDK retries connection failures, 409s and 5xx, resending the same
 * `Idempotency-Key`, so a retry never creates or charges twice.
 */
const MAX_NETWORK_RETRIES = 2;
const STRIPE_API_URL = 'https://api.stripe.com';
/** Secret and restricted keys, whole or masked the way Stripe echoes them (`sk_test_****abcd`). */
const KEY_PATTERN = /\b[sr]k_(?:test|live)_[A-Za-z0-9_*]+/g;

export interface StripeGatewaySettings {
  secretKey: string;
  /** Stripe's own API when unset; the tests' loopback fake otherwise. Only scheme, host and port count: the SDK adds `/v1`. */
  apiUrl?: string;
  timeoutMs?: number;
  maxNetworkRetries?: number;
}

/** Stripe through its official SDK, at the API version the SDK is typed for. */
export class StripePaymentGateway extends PaymentGateway {
  readonly name = 'stripe';
  private readonly stripe: Stripe;
  private readonly apiOrigin: string;
  /** Scrubs the key from error messages; the key itself is kept only here and in the SDK. */
  private readonly redact: (text: string) => string;

  constructor(settings: StripeGatewaySettings) {
    super();
    const { secretKey } = settings;
    this.redact = (text) => (secretKey ? text.split(secretKey).join('[redacted]') : text).replace(KEY_PATTERN, '[redacted]');
    this.apiOrigin = new URL(settings.apiUrl ?? STRIPE_API_URL).origin;
    this.stripe = new Stripe(settings.secretKey, {
      timeout: settings.timeoutMs ?? TIMEOUT_MS,
      maxNetworkRetries: settings.maxNetworkRetries ?? MAX_NETWORK_RETRIES,
      ...(settings.apiUrl ? addressOf(settings.apiUrl) : {}),
    });
  }

  async createCustomer({ ownerId, idempotencyKey }: CreateCustomer): Promise<{ customerId: string }> {
    const customer = await this.call('create a customer', () =>
      this.stripe.customers.create({ metadata: { ownerId } }, { idempotencyKey }),
    );
    return { customerId: customer.id };
  }

  async createPaymentIntent(request: CreatePaymentIntent): Promise<PaymentIntent> {
    const intent = await this.call('create a payment intent', () =>
      this.stripe.paymentIntents.create(intentParams(request), { idempotencyKey: request.idempotencyKey }),
    );
    return { ...toPaymentIntent(intent), clientSecret: this.clientSecretOf(intent) };
  }

  /**
   * A decline answers `failed` with the intent Stripe attached to the card error,
   * so the later `payment_intent.payment_failed` webhook matches it by id. Were a
   * card error ever to come without an intent, the answer is still `failed`, with
   * an empty id and client secret: the decline is final (a retry with the same key
   * replays it), and no webhook can be matched to it.
   */
  async chargeOffSession(request: ChargeOffSession): Promise<PaymentIntent> {
    try {
      const intent = await this.stripe.paymentIntents.create(
        { ...intentParams(request), payment_method: request.paymentMethodId, off_session: true, confirm: true },
        { idempotencyKey: request.idempotencyKey },
      );
      return toPaymentIntent(intent);
    } catch (error) {
      if (error instanceof Stripe.errors.StripeCardError) return declined(error, request.amountCents);
      throw this.failure('charge a saved card', error);
    }
  }

  async createSetupIntent({ customerId, metadata, idempotencyKey }: CreateSetupIntent): Promise<SetupIntent> {
    const intent = await this.call('create a setup intent', () =>
      this.stripe.setupIntents.create({ customer: customerId, metadata, usage: 'off_session' }, { idempotencyKey }),
    );
    return { id: intent.id, clientSecret: this.clientSecretOf(intent) };
  }

  /**
   * Stripe Checkout in setup mode. Its SetupIntent takes `setup_intent_data.metadata`, not the
   * session's: the owner must be there for `setup_intent.succeeded` to save the card.
   */
  async createCardSetupSession(request: CreateCardSetupSession): Promise<CardSetupSession> {
    const session = await this.call('create a checkout session', () =>
      this.stripe.checkout.sessions.create(
        {
          mode: 'setup',
          customer: request.customerId,
          // The SDK's API version replaced `payment_method_types` with this filter; cards only.
          allowed_payment_method_types: ['card'],
          success_url: request.successUrl,
          cancel_url: request.cancelUrl,
          metadata: request.metadata,
          setup_intent_data: { metadata: request.setupIntentMetadata },
        },
        { idempotencyKey: request.idempotencyKey },
      ),
    );
    if (!session.url) throw new PaymentGatewayError(`Stripe answered checkout session ${session.id} without a url`);
    return { id: session.id, url: session.url };
  }

  async retrievePaymentMethod(paymentMethodId: string): Promise<CardPaymentMethod> {
    const method = await this.call('retrieve a payment method', () => this.stripe.paymentMethods.retrieve(paymentMethodId));
    return this.toCard(method);
  }

  async listPaymentMethods(customerId: string): Promise<CardPaymentMethod[]> {
    return this.call('list payment methods', async () => {
      const cards: CardPaymentMethod[] = [];
      // Iterating follows `has_more` across pages.
      for await (const method of this.stripe.customers.listPaymentMethods(customerId, { type: 'card', limit: 100 })) {
        cards.push(this.toCard(method));
      }
      return cards;
    });
  }

  async createPortalSession({ customerId, returnUrl, idempotencyKey }: CreatePortalSession): Promise<{ url: string }> {
    const session = await this.call('create a billing portal session', () =>
      this.stripe.billingPortal.sessions.create(
        { customer: customerId, return_url: returnUrl },
        idempotencyKey ? { idempotencyKey } : undefined,
      ),
    );
    return { url: session.url };
  }

  /** An Express account that can receive transfers: the platform takes the payment and pays the vendor its share. */
  async createConnectedAccount({ vendorId, idempotencyKey }: CreateConnectedAccount): Promise<{ accountId: string }> {
    const account = await this.call('create a connected account', () =>
      this.stripe.accounts.create(
        { type: 'express', capabilities: { transfers: { requested: true } }, metadata: { vendorId } },
        { idempotencyKey },
      ),
    );
    return { accountId: account.id };
  }

  async createAccountLink({ accountId, refreshUrl, returnUrl }: CreateAccountLink): Promise<{ url: string }> {
    const link = await this.call('create an account link', () =>
      this.stripe.accountLinks.create({
        account: accountId,
        refresh_url: refreshUrl,
        return_url: returnUrl,
        type: 'account_onboarding',
      }),
    );
    return { url: link.url };
  }

  async createLoginLink(accountId: string): Promise<{ url: string }> {
    const link = await this.call('create a dashboard login link', () => this.stripe.accounts.createLoginLink(accountId));
    return { url: link.url };
  }

  async listSucceededPaymentIntents(window: TimeWindow = {}): Promise<SucceededPaymentIntent[]> {
    const created: Stripe.RangeQueryParam = {};
    if (window.from) created.gte = Math.floor(window.from.getTime() / 1000);
    if (window.to) created.lte = Math.ceil(window.to.getTime() / 1000);
    return this.call('list payment intents', async () => {
      const succeeded: SucceededPaymentIntent[] = [];
      // The list has no status filter; iterating follows `has_more` across pages.
      for await (const intent of this.stripe.paymentIntents.list({
        limit: 100,
        ...(window.from || window.to ? { created } : {}),
      })) {
        if (intent.status !== 'succeeded') continue;
        succeeded.push({
          id: intent.id,
          amountCents: intent.amount_received || intent.amount,
          metadata: { ...intent.metadata },
          createdAt: new Date(intent.created * 1000).toISOString(),
        });
      }
      return succeeded;
    });
  }

  private async call<T>(action: string, request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (error) {
      throw this.failure(action, error);
    }
  }

  /** Any failure but a decline, with Stripe's reason and without the key; the SDK's error stays as `cause`. */
  private failure(action: string, error: unknown): PaymentGatewayError {
    if (error instanceof PaymentGatewayError) return error;
    return new PaymentGatewayError(this.redact(`Stripe could not ${action}: ${this.describe(error)}`), { cause: error });
  }

  private describe(error: unknown): string {
    if (error instanceof Stripe.errors.StripeConnectionError) {
      const code = (error.detail as { code?: unknown } | undefined)?.code;
      // A timeout already names itself; a refused or reset connection is in the socket error's code.
      const reason = typeof code === 'string' && code !== 'ETIMEDOUT' ? `${code}; ${error.message}` : error.message;
      return `no answer from ${this.apiOrigin} (${reason})`;
    }
    if (error instanceof Stripe.errors.StripeError) {
      const kind = [error.statusCode, error.rawType, error.code].filter((part) => part !== undefined).join(' ');
      const request = error.requestId ? ` (request ${error.requestId})` : '';
      return `${kind}: ${error.message}${request}`;
    }
    return error instanceof Error ? error.message : String(error);
  }

  private clientSecretOf(intent: { id: string; client_secret: string | null }): string {
    if (!intent.client_secret) throw new PaymentGatewayError(`Stripe answered ${intent.id} without a client secret`);
    return intent.client_secret;
  }

  /** Only what we may show: never the fingerprint, country, funding or billing details. */
  private toCard(method: Stripe.PaymentMethod): CardPaymentMethod {
    if (method.type !== 'card' || !method.card) {
      throw new PaymentGatewayError(`Stripe payment method ${method.id} is a ${method.type}, not a card`);
    }
    const { brand, last4, exp_month: expMonth, exp_year: expYear } = method.card;
    return { id: method.id, brand, last4, expMonth, expYear };
  }
}

/**
 * Where Stripe serves Checkout's hosted pages: its own origin, or the loopback fake's (which serves them
 * beside its API). A web form that is redirected there must be allowed to go (CSP `form-action`).
 */
export function stripeCheckoutOrigin(apiUrl: string | undefined): string {
  return apiUrl ? new URL(apiUrl).origin : 'https://checkout.stripe.com';
}

/** The SDK takes an address as host, port and protocol rather than a URL. */
function addressOf(apiUrl: string): Pick<Stripe.StripeConfig, 'host' | 'port' | 'protocol'> {
  const url = new URL(apiUrl);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return {
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'), // an IPv6 literal goes to node:http without its brackets
    port: url.port || (protocol === 'http' ? 80 : 443),
    protocol,
  };
}

function intentParams(request: CreatePaymentIntent): Stripe.PaymentIntentCreateParams {
  return {
    amount: request.amountCents,
    currency: CURRENCY,
    ...(request.customerId ? { customer: request.customerId } : {}),
    metadata: request.metadata,
    ...(request.description ? { description: request.description } : {}),
  };
}

function toPaymentIntent(intent: Stripe.PaymentIntent): PaymentIntent {
  return {
    id: intent.id,
    clientSecret: intent.client_secret ?? '',
    amountCents: intent.amount,
    status: statusOf(intent.status),
  };
}

/** The statuses the port names as Stripe does. */
const PORT_STATUSES = new Set<string>([
  'requires_payment_method',
  'requires_confirmation',
  'requires_action',
  'processing',
  'succeeded',
  'canceled',
]);

/** We never ask for manual capture, so `requires_capture` (or a status added later) is money not yet settled: the webhook settles it. */
function statusOf(status: Stripe.PaymentIntent.Status): PaymentIntent['status'] {
  return PORT_STATUSES.has(status) ? (status as PaymentIntent['status']) : 'processing';
}

function declined(error: Stripe.errors.StripeCardError, amountCents: number): PaymentIntent {
  const intent = error.payment_intent;
  return {
    id: intent?.id ?? '',
    clientSecret: intent?.client_secret ?? '',
    amountCents: intent?.amount ?? amountCents,
    status: 'failed',
    failureMessage: intent?.last_payment_error?.message ?? error.message,
  };
}
