import { randomBytes } from 'node:crypto';
import * as http from 'node:http';
import { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { WebhookSignature } from '../../src/modules/billing/adapters/webhook-signature';
import { FormParams, FormSyntaxError, FormValue, parseStripeForm } from './stripe-form';

/**
 * The part of Stripe's REST API the service uses, on loopback, spoken the way
 * the official SDK speaks it: form-encoded bodies, Bearer keys, idempotency
 * keys, Stripe's object and error shapes. Webhooks are not sent by themselves:
 * the test controls return the event (and `events` keeps every one) for the test
 * to hand over with `deliverWebhook`. The exception is Checkout's hosted page
 * (`/c/pay/<session id>`, for a browser): a card submitted there completes the
 * session and, once `sendWebhooksTo` names an endpoint, its events are delivered
 * there before the browser is redirected, as Stripe would send them.
 */
export class FakeStripe {
  /** Every request, in arrival order; `status` is filled in when it is answered. */
  readonly requests: FakeStripeRequest[] = [];
  /** Every event Stripe would have sent a webhook for, in order: the test controls' and the API's own (an off-session charge). */
  readonly events: StripeEvent[] = [];

  private readonly customers = new Map<string, StripeCustomer>();
  private readonly paymentIntents = new Map<string, StripePaymentIntent>();
  private readonly setupIntents = new Map<string, StripeSetupIntent>();
  private readonly paymentMethods = new Map<string, StripePaymentMethod>();
  private readonly portalSessions = new Map<string, Json>();
  private readonly checkoutSessions = new Map<string, StripeCheckoutSession>();
  private readonly checkoutSetupMetadata = new Map<string, Record<string, string>>();
  private webhookEndpoint: { url: string; secret: string } | null = null;
  /** The webhooks the fake sent by itself (hosted Checkout), with the endpoint's answer. */
  readonly deliveries: Array<{ type: string; status: number }> = [];
  private readonly accounts = new Map<string, StripeAccount>();
  private readonly accountLinks: FakeAccountLink[] = [];
  private readonly loginLinks: Json[] = [];
  private readonly declines = new Map<string, string>(); // payment method id -> decline message
  private readonly idempotent = new Map<string, StoredResponse>();
  /** How many pages of payment intents were listed: a test sees pagination followed. */
  listedPages = 0;
  private offSessionDecline: string | null = null;
  private failures: { count: number; status: number | 'stall' } = { count: 0, status: 500 };

  private constructor(
    private readonly server: http.Server,
    readonly url: string,
    readonly secretKey: string,
  ) {}

  static async start(options: { secretKey?: string } = {}): Promise<FakeStripe> {
    const secretKey = options.secretKey ?? `sk_test_${randomId(24)}`;
    const server = http.createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const { port } = server.address() as AddressInfo;
    const fake = new FakeStripe(server, `http://127.0.0.1:${port}`, secretKey);
    server.on('request', (req, res) => {
      fake.handle(req, res).catch((error: unknown) => {
        // A bug in the fake, not an answer Stripe would give: told plainly, and not retried by the SDK.
        if (res.headersSent) return void res.destroy();
        res.writeHead(500, { 'Content-Type': 'application/json', 'Stripe-Should-Retry': 'false' });
        res.end(JSON.stringify(stripeError('api_error', `FakeStripe failed: ${String(error)}`)));
      });
    });
    return fake;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections(); // the SDK keeps connections alive; stalled requests are cut
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  // ---- test controls

  /** Plays the customer confirming a setup intent with a card: the card is attached to the intent's customer. */
  completeSetupIntent(setupIntentId: string, card: FakeCard = {}): StripeEvent {
    const intent = this.existing(this.setupIntents, 'setup_intent', setupIntentId);
    if (intent.status === 'succeeded') throw new Error(`${setupIntentId} has already succeeded`);
    const method = this.addPaymentMethod(intent.customer, card);
    Object.assign(intent, { status: 'succeeded', payment_method: method.id });
    return this.emit('setup_intent.succeeded', intent);
  }

  /** A saved card, as if set up earlier (attached to `customerId` unless null). */
  addPaymentMethod(customerId: string | null, card: FakeCard = {}): StripePaymentMethod {
    if (customerId !== null) this.existing(this.customers, 'customer', customerId);
    const brand = card.brand ?? 'visa';
    const method: StripePaymentMethod = {
      id: stripeId('pm'),
      object: 'payment_method',
      allow_redisplay: 'unspecified',
      billing_details: { address: null, email: null, name: null, phone: null },
      card: {
        brand,
        display_brand: brand,
        last4: card.last4 ?? '4242',
        exp_month: card.expMonth ?? 12,
        exp_year: card.expYear ?? 2030,
        country: 'US',
        funding: 'credit',
        fingerprint: randomId(16),
        checks: { address_line1_check: null, address_postal_code_check: null, cvc_check: 'pass' },
        networks: { available: [brand], preferred: null },
        wallet: null,
      },
      created: unixNow(),
      customer: customerId,
      livemode: false,
      metadata: {},
      type: 'card',
    };
    this.paymentMethods.set(method.id, method);
    if (card.declineMessage) this.declines.set(method.id, card.declineMessage);
    return method;
  }

  /** Plays the client confirming an intent successfully (with a fresh visa card when it has no method). */
  succeedPaymentIntent(paymentIntentId: string): StripeEvent {
    const intent = this.existing(this.paymentIntents, 'payment_intent', paymentIntentId);
    if (intent.status === 'succeeded') throw new Error(`${paymentIntentId} has already succeeded`);
    intent.payment_method ??= this.addPaymentMethod(null).id;
    this.settle(intent);
    return this.emit('payment_intent.succeeded', intent);
  }

  /** Plays a declined confirmation: the intent goes back to `requires_payment_method` with the reason. */
  failPaymentIntent(paymentIntentId: string, message = 'Your card was declined.'): StripeEvent {
    const intent = this.existing(this.paymentIntents, 'payment_intent', paymentIntentId);
    if (intent.status === 'succeeded') throw new Error(`${paymentIntentId} has already succeeded`);
    this.decline(intent, message);
    return this.emit('payment_intent.payment_failed', intent);
  }

  /**
   * Plays the vendor finishing Stripe's hosted onboarding: the account's charges
   * and payouts are enabled and its details submitted. Returns the Connect event
   * `account.updated` (naming the account) Stripe would send.
   */
  completeOnboarding(accountId: string): StripeEvent {
    const account = this.existing(this.accounts, 'account', accountId);
    Object.assign(account, { charges_enabled: true, details_submitted: true, payouts_enabled: true });
    return this.emit('account.updated', account, undefined, accountId);
  }

  /** Where the hosted pages' events go (the app's `POST /v1/webhooks/pay`), signed with `secret`. */
  sendWebhooksTo(appUrl: string, secret: string): void {
    this.webhookEndpoint = { url: appUrl, secret };
  }

  /** From now on every off-session charge is declined with this message (402 card_error); `null` stops it. */
  declineOffSessionCharges(message: string | null = 'Your card was declined.'): void {
    this.offSessionDecline = message;
  }

  /** The next `count` requests get `status` with Stripe's `api_error` body, before any other processing. */
  failNextRequests(count: number, status = 500): void {
    this.failures = { count, status };
  }

  /** The next `count` requests are never answered (until `close`): for timeouts. */
  stallNextRequests(count: number): void {
    this.failures = { count, status: 'stall' };
  }

  customer(id: string): StripeCustomer | undefined {
    return copy(this.customers.get(id));
  }

  paymentIntent(id: string): StripePaymentIntent | undefined {
    return copy(this.paymentIntents.get(id));
  }

  account(id: string): StripeAccount | undefined {
    return copy(this.accounts.get(id));
  }

  /** The account links made, with the refresh and return URLs each was asked for (newest last). */
  accountLinksMade(): FakeAccountLink[] {
    return copy(this.accountLinks);
  }

  setupIntent(id: string): StripeSetupIntent | undefined {
    return copy(this.setupIntents.get(id));
  }

  checkoutSession(id: string): StripeCheckoutSession | undefined {
    return copy(this.checkoutSessions.get(id));
  }

  paymentMethod(id: string): StripePaymentMethod | undefined {
    return copy(this.paymentMethods.get(id));
  }

  /** How many objects of a kind exist (idempotent replays create none). */
  count(
    kind:
      | 'customer'
      | 'payment_intent'
      | 'setup_intent'
      | 'payment_method'
      | 'billing_portal.session'
      | 'checkout.session'
      | 'account'
      | 'account_link'
      | 'login_link',
  ): number {
    if (kind === 'account_link') return this.accountLinks.length;
    if (kind === 'login_link') return this.loginLinks.length;
    const stores = {
      customer: this.customers,
      payment_intent: this.paymentIntents,
      setup_intent: this.setupIntents,
      payment_method: this.paymentMethods,
      'billing_portal.session': this.portalSessions,
      'checkout.session': this.checkoutSessions,
      account: this.accounts,
    };
    return stores[kind].size;
  }

  // ---- the API

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake-stripe');
    const method = req.method ?? 'GET';
    // A browser's page, not the API: no key, no JSON.
    if (url.pathname.startsWith(HOSTED_CHECKOUT_PATH)) return this.hostedCheckout(req, res, url, method);
    const idempotencyKey = header(req, 'idempotency-key');
    const context: RequestContext = { id: `req_${randomId(14)}`, idempotencyKey };
    const entry: FakeStripeRequest = { method, path: url.pathname, idempotencyKey, params: {}, replayed: false };
    this.requests.push(entry);
    const raw = await readBody(req);

    const answer = (status: number, body: Json, extraHeaders: Record<string, string> = {}) => {
      entry.status = status;
      res.writeHead(status, {
        'Content-Type': 'application/json',
        'Request-Id': context.id,
        'Stripe-Version': header(req, 'stripe-version') ?? Stripe.API_VERSION,
        ...(idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : {}),
        ...extraHeaders,
      });
      res.end(JSON.stringify(body, null, 2));
    };

    if (this.failures.count > 0) {
      this.failures.count--;
      if (this.failures.status === 'stall') return;
      return answer(this.failures.status, stripeError('api_error', 'An unknown error occurred'));
    }

    const auth = this.authenticate(header(req, 'authorization'));
    if (auth) return answer(401, auth, { 'WWW-Authenticate': 'Bearer realm="Stripe"' });

    try {
      entry.params = parseStripeForm(method === 'POST' ? raw : url.search.slice(1));
    } catch (error) {
      if (!(error instanceof FormSyntaxError)) throw error;
      return answer(400, stripeError('invalid_request_error', `Invalid request: ${error.message}`));
    }

    if (method === 'POST' && idempotencyKey !== undefined) {
      const refusal = this.idempotencyRefusal(idempotencyKey, url.pathname, entry.params);
      if (refusal) return answer(400, refusal);
      const stored = this.idempotent.get(idempotencyKey);
      if (stored) {
        entry.replayed = true;
        return answer(stored.status, stored.body, { 'Idempotent-Replayed': 'true' });
      }
    }

    let status = 200;
    let body: Json;
    try {
      body = this.route(method, url.pathname, entry.params, context);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      [status, body] = [error.status, error.body];
    }
    // Like Stripe, only requests that ran are saved: a 400 (bad parameters) may be retried with the same key, fixed.
    if (method === 'POST' && idempotencyKey !== undefined && (status === 200 || status === 402)) {
      this.idempotent.set(idempotencyKey, { path: url.pathname, params: canonical(entry.params), status, body });
    }
    answer(status, body);
  }

  private authenticate(authorization: string | undefined): Json | undefined {
    const key = /^Bearer (\S+)$/.exec(authorization ?? '')?.[1];
    if (!key) {
      return stripeError(
        'invalid_request_error',
        "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY').",
      );
    }
    if (key !== this.secretKey) return stripeError('invalid_request_error', `Invalid API Key provided: ${masked(key)}`);
    return undefined;
  }

  private idempotencyRefusal(key: string, path: string, params: FormParams): Json | undefined {
    if (key.length > 255) {
      return stripeError('idempotency_error', 'Idempotency keys can be at most 255 characters long.');
    }
    const stored = this.idempotent.get(key);
    if (!stored) return undefined;
    if (stored.path !== path) {
      return stripeError(
        'idempotency_error',
        `Keys for idempotent requests can only be used for the same endpoint they were first used for ('${stored.path}' vs '${path}'). Try using a key other than '${key}' if you meant to execute a different request.`,
      );
    }
    if (stored.params !== canonical(params)) {
      return stripeError(
        'idempotency_error',
        `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
      );
    }
    return undefined;
  }

  private route(method: string, path: string, params: FormParams, request: RequestContext): Json {
    const segments = path.split('/').slice(1).map(decodeURIComponent);
    const [version, resource, id, sub] = segments;
    if (version === 'v1') {
      if (method === 'POST' && path === '/v1/customers') return this.createCustomer(params);
      if (method === 'POST' && path === '/v1/payment_intents') return this.createPaymentIntent(params, request);
      if (method === 'GET' && path === '/v1/payment_intents') return this.listPaymentIntents(params, path);
      if (method === 'GET' && resource === 'payment_intents' && segments.length === 3) {
        return this.existing(this.paymentIntents, 'payment_intent', id, { status: 404 });
      }
      if (method === 'POST' && path === '/v1/setup_intents') return this.createSetupIntent(params);
      if (method === 'GET' && resource === 'payment_methods' && segments.length === 3) {
        return this.existing(this.paymentMethods, 'payment_method', id, { status: 404 });
      }
      if (method === 'GET' && resource === 'customers' && sub === 'payment_methods' && segments.length === 4) {
        return this.listPaymentMethods(id, params, path);
      }
      if (method === 'POST' && path === '/v1/billing_portal/sessions') return this.createPortalSession(params);
      if (method === 'POST' && path === '/v1/checkout/sessions') return this.createCheckoutSession(params);
      if (method === 'GET' && resource === 'checkout' && id === 'sessions' && segments.length === 4) {
        return this.existing(this.checkoutSessions, 'checkout.session', sub, { status: 404 });
      }
      if (method === 'POST' && path === '/v1/accounts') return this.createAccount(params);
      if (method === 'GET' && resource === 'accounts' && segments.length === 3) {
        return this.existing(this.accounts, 'account', id, { status: 404 });
      }
      if (method === 'POST' && path === '/v1/account_links') return this.createAccountLink(params);
      if (method === 'POST' && resource === 'accounts' && sub === 'login_links' && segments.length === 4) {
        return this.createLoginLink(id);
      }
    }
    throw new ApiError(
      404,
      stripeError(
        'invalid_request_error',
        `Unrecognized request URL (${method}: ${path}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`,
      ),
    );
  }

  private createCustomer(params: FormParams): StripeCustomer {
    const customer: StripeCustomer = {
      id: stripeId('cus', 14),
      object: 'customer',
      created: unixNow(),
      description: optionalString(params, 'description'),
      email: optionalString(params, 'email'),
      invoice_settings: { default_payment_method: null },
      livemode: false,
      metadata: metadataOf(params),
      name: optionalString(params, 'name'),
    };
    this.customers.set(customer.id, customer);
    return customer;
  }

  private createPaymentIntent(params: FormParams, request: RequestContext): StripePaymentIntent {
    const amount = integer(params, 'amount');
    const currency = requiredString(params, 'currency').toLowerCase();
    if (currency === 'usd' && amount < 50) {
      throw invalid('Amount must be at least $0.50 usd', 'amount', 'amount_too_small');
    }
    const customer = optionalString(params, 'customer');
    if (customer !== null) this.existing(this.customers, 'customer', customer, { status: 400, param: 'customer' });
    const paymentMethodId = optionalString(params, 'payment_method');
    const confirm = flag(params, 'confirm');
    const offSession = flag(params, 'off_session');
    if (offSession && !confirm) throw invalid('off_session can only be used when confirm=true.', 'off_session');
    if (paymentMethodId !== null) {
      const method = this.existing(this.paymentMethods, 'payment_method', paymentMethodId, {
        status: 400,
        param: 'payment_method',
      });
      if (method.customer !== customer) {
        throw invalid(
          `The provided PaymentMethod ${paymentMethodId} does not belong to customer ${customer ?? '(none)'}; attach it first.`,
          'payment_method',
        );
      }
    }
    if (confirm && paymentMethodId === null) {
      throw invalid(
        "You cannot confirm this PaymentIntent because it's missing a payment method.",
        'payment_method',
        'parameter_missing',
      );
    }
    const id = stripeId('pi');
    const intent: StripePaymentIntent = {
      id,
      object: 'payment_intent',
      amount,
      amount_capturable: 0,
      amount_received: 0,
      canceled_at: null,
      cancellation_reason: null,
      capture_method: 'automatic_async',
      client_secret: `${id}_secret_${randomId(25)}`,
      confirmation_method: 'automatic',
      created: unixNow(),
      currency,
      customer,
      description: optionalString(params, 'description'),
      last_payment_error: null,
      latest_charge: null,
      livemode: false,
      metadata: metadataOf(params),
      next_action: null,
      payment_method: paymentMethodId,
      payment_method_types: ['card'],
      setup_future_usage: null,
      status: paymentMethodId === null ? 'requires_payment_method' : 'requires_confirmation',
    };
    this.paymentIntents.set(id, intent);
    if (!confirm) return intent;

    const declineMessage = this.declines.get(paymentMethodId!) ?? (offSession ? this.offSessionDecline : null);
    if (declineMessage !== null) {
      const error = this.decline(intent, declineMessage);
      this.emit('payment_intent.payment_failed', intent, request);
      throw new ApiError(402, { error: { ...error, payment_intent: copy(intent) } });
    }
    this.settle(intent);
    this.emit('payment_intent.succeeded', intent, request);
    return intent;
  }

  private createSetupIntent(params: FormParams): StripeSetupIntent {
    const customer = optionalString(params, 'customer');
    if (customer !== null) this.existing(this.customers, 'customer', customer, { status: 400, param: 'customer' });
    const usage = optionalString(params, 'usage') ?? 'off_session';
    if (usage !== 'off_session' && usage !== 'on_session') throw invalid(`Invalid usage: ${usage}`, 'usage');
    const id = stripeId('seti');
    const intent: StripeSetupIntent = {
      id,
      object: 'setup_intent',
      cancellation_reason: null,
      client_secret: `${id}_secret_${randomId(25)}`,
      created: unixNow(),
      customer,
      description: optionalString(params, 'description'),
      last_setup_error: null,
      livemode: false,
      metadata: metadataOf(params),
      next_action: null,
      payment_method: null,
      payment_method_types: ['card'],
      status: 'requires_payment_method',
      usage,
    };
    this.setupIntents.set(id, intent);
    return intent;
  }

  /** Newest first, `limit` (10 by default, at most 100) at a time after `starting_after`, like every Stripe list. */
  private listPaymentMethods(customerId: string, params: FormParams, path: string): Json {
    this.existing(this.customers, 'customer', customerId, { status: 404 });
    const type = optionalString(params, 'type');
    const limit = params.limit === undefined ? 10 : integer(params, 'limit');
    if (limit < 1 || limit > 100) throw invalid('This value must be between 1 and 100.', 'limit');
    const all = [...this.paymentMethods.values()]
      .filter((method) => method.customer === customerId && (type === null || method.type === type))
      .reverse();
    const after = optionalString(params, 'starting_after');
    const start = after === null ? 0 : all.findIndex((method) => method.id === after) + 1;
    if (after !== null && start === 0) throw invalid(`No such payment_method: '${after}'`, 'starting_after', 'resource_missing');
    const page = all.slice(start, start + limit);
    return { object: 'list', data: page, has_more: start + limit < all.length, url: path };
  }

  /** Newest first and paged like every Stripe list; `created[gte|gt|lte|lt]` filters by creation (unix seconds). */
  private listPaymentIntents(params: FormParams, path: string): Json {
    const limit = params.limit === undefined ? 10 : integer(params, 'limit');
    if (limit < 1 || limit > 100) throw invalid('This value must be between 1 and 100.', 'limit');
    const created = (typeof params.created === 'object' && params.created !== null ? params.created : {}) as FormParams;
    const bound = (name: string): number | null => (created[name] === undefined ? null : integer(created, name));
    const [gte, gt, lte, lt] = ['gte', 'gt', 'lte', 'lt'].map(bound);
    const all = [...this.paymentIntents.values()]
      .filter(
        (intent) =>
          (gte === null || intent.created >= gte) &&
          (gt === null || intent.created > gt) &&
          (lte === null || intent.created <= lte) &&
          (lt === null || intent.created < lt),
      )
      .reverse();
    const after = optionalString(params, 'starting_after');
    const start = after === null ? 0 : all.findIndex((intent) => intent.id === after) + 1;
    if (after !== null && start === 0) throw invalid(`No such payment_intent: '${after}'`, 'starting_after', 'resource_missing');
    const page = all.slice(start, start + limit);
    this.listedPages++;
    return { object: 'list', data: page, has_more: start + limit < all.length, url: path };
  }

  private createPortalSession(params: FormParams): Json {
    const customer = requiredString(params, 'customer');
    this.existing(this.customers, 'customer', customer, { status: 400, param: 'customer' });
    const returnUrl = optionalString(params, 'return_url');
    if (returnUrl !== null && !URL.canParse(returnUrl)) throw invalid('Not a valid URL', 'return_url', 'url_invalid');
    const session = {
      id: stripeId('bps'),
      object: 'billing_portal.session',
      configuration: 'bpc_fake_default',
      created: unixNow(),
      customer,
      flow: null,
      livemode: false,
      locale: null,
      on_behalf_of: null,
      return_url: returnUrl,
      url: `https://billing.stripe.com/p/session/test_${randomId(40)}`,
    };
    this.portalSessions.set(session.id, session);
    return session;
  }

  /**
   * A Checkout Session in setup mode (the only mode the fake serves), open for 24 hours. As at Stripe's
   * API versions since 2022-08-01, its SetupIntent is made when the customer submits the form, and takes
   * `setup_intent_data.metadata`, never the session's own `metadata`.
   */
  private createCheckoutSession(params: FormParams): StripeCheckoutSession {
    const mode = requiredString(params, 'mode');
    if (!['payment', 'setup', 'subscription'].includes(mode)) {
      throw invalid('Invalid mode: must be one of payment, setup, or subscription', 'mode');
    }
    if (mode !== 'setup') throw invalid(`FakeStripe serves only setup mode, not ${mode}`, 'mode');
    const uiMode = optionalString(params, 'ui_mode') ?? 'hosted';
    if (uiMode !== 'hosted') throw invalid('FakeStripe serves only ui_mode=hosted', 'ui_mode');
    const successUrl = requiredString(params, 'success_url');
    const cancelUrl = optionalString(params, 'cancel_url');
    for (const [name, value] of Object.entries({ success_url: successUrl, cancel_url: cancelUrl })) {
      if (value !== null && !URL.canParse(value)) throw invalid('Not a valid URL', name, 'url_invalid');
    }
    // Stripe would make the session without one and attach the card to nobody: nothing we do wants that.
    const customer = requiredString(params, 'customer');
    this.existing(this.customers, 'customer', customer, { status: 400, param: 'customer' });
    const allowed = listOf(params, 'allowed_payment_method_types');
    for (const type of allowed) {
      if (type !== 'card')
        throw invalid(`FakeStripe knows only the card payment method type, not ${type}`, 'allowed_payment_method_types');
    }
    const currency = optionalString(params, 'currency');
    if (allowed.length === 0 && currency === null) {
      throw invalid(
        'currency is required in setup mode when allowed_payment_method_types is not set.',
        'currency',
        'parameter_missing',
      );
    }
    const setupIntentData = params.setup_intent_data;
    if (setupIntentData !== undefined && typeof setupIntentData === 'string')
      throw invalid('Invalid object', 'setup_intent_data');
    const id = stripeId('cs_test', 58);
    const created = unixNow();
    const session: StripeCheckoutSession = {
      id,
      object: 'checkout.session',
      allowed_payment_method_types: allowed.length ? allowed : null,
      cancel_url: cancelUrl,
      client_reference_id: optionalString(params, 'client_reference_id'),
      created,
      currency,
      customer,
      expires_at: created + 24 * 3600,
      livemode: false,
      metadata: metadataOf(params),
      mode,
      payment_intent: null,
      payment_method_types: ['card'],
      payment_status: 'no_payment_required',
      setup_intent: null,
      status: 'open',
      success_url: successUrl,
      ui_mode: 'hosted',
      url: `${this.url}${HOSTED_CHECKOUT_PATH}${id}`,
    };
    // Not part of Stripe's answer: what the SetupIntent will carry.
    this.checkoutSetupMetadata.set(id, setupIntentData ? metadataOf(setupIntentData) : {});
    this.checkoutSessions.set(id, session);
    return session;
  }

  /** The hosted form: GET shows it, POST submits a card number (4242… saves, 4000 0000 0000 0002 is declined). */
  private async hostedCheckout(req: http.IncomingMessage, res: http.ServerResponse, url: URL, method: string): Promise<void> {
    const raw = await readBody(req);
    const session = this.checkoutSessions.get(decodeURIComponent(url.pathname.slice(HOSTED_CHECKOUT_PATH.length)));
    const page = (status: number, body: string) => {
      res.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
      res.end(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Save a card</title></head><body><main>${body}</main></body></html>`,
      );
    };
    if (!session) return page(404, '<h1>Something went wrong</h1><p>This page could not be found.</p>');
    if (session.status !== 'open' || session.expires_at <= unixNow()) {
      return page(410, '<h1>This session has ended</h1><p>Return to the site and try again.</p>');
    }
    const form = (error?: string) =>
      `<h1>Save a card</h1>${error ? `<p role="alert" id="card-error">${escapeHtml(error)}</p>` : ''}
<form method="post" action="${HOSTED_CHECKOUT_PATH}${session.id}">
<label for="cardNumber">Card number</label>
<input id="cardNumber" name="cardNumber" inputmode="numeric" autocomplete="cc-number" required${error ? ' aria-describedby="card-error"' : ''}>
<button type="submit">Save card</button>
</form>${session.cancel_url ? `<p><a href="${escapeHtml(session.cancel_url)}">Back</a></p>` : ''}`;
    if (method !== 'POST') return page(200, form());
    const number = (new URLSearchParams(raw).get('cardNumber') ?? '').replace(/[\s-]/g, '');
    if (number === DECLINED_CARD) return page(402, form('Your card was declined.'));
    if (number !== TEST_CARD) return page(400, form('Your card number is invalid.'));
    const events = this.completeCheckoutSession(session);
    if (this.webhookEndpoint) {
      const { url: appUrl, secret } = this.webhookEndpoint;
      for (const event of events) {
        const { status } = await deliverWebhook(appUrl, event, secret);
        this.deliveries.push({ type: event.type, status });
      }
    }
    const successUrl = session.success_url!.replace('{CHECKOUT_SESSION_ID}', session.id);
    res.writeHead(303, { Location: successUrl });
    res.end();
  }

  /** The card is attached to the customer through a succeeded SetupIntent; the session is complete. */
  private completeCheckoutSession(session: StripeCheckoutSession): StripeEvent[] {
    const method = this.addPaymentMethod(session.customer);
    const id = stripeId('seti');
    const intent: StripeSetupIntent = {
      id,
      object: 'setup_intent',
      cancellation_reason: null,
      client_secret: `${id}_secret_${randomId(25)}`,
      created: unixNow(),
      customer: session.customer,
      description: null,
      last_setup_error: null,
      livemode: false,
      metadata: this.checkoutSetupMetadata.get(session.id) ?? {},
      next_action: null,
      payment_method: method.id,
      payment_method_types: ['card'],
      status: 'succeeded',
      usage: 'off_session',
    };
    this.setupIntents.set(id, intent);
    Object.assign(session, { status: 'complete', setup_intent: id, url: null });
    return [this.emit('setup_intent.succeeded', intent), this.emit('checkout.session.completed', session)];
  }

  /** A Connect account: not onboarded (no charges, payouts or details) until `completeOnboarding`. */
  private createAccount(params: FormParams): StripeAccount {
    const type = optionalString(params, 'type');
    if (type !== null && !['express', 'standard', 'custom'].includes(type)) {
      throw invalid(`Invalid type: must be one of custom, express, or standard`, 'type');
    }
    if (type === null && params.controller === undefined) {
      throw invalid('You must provide either `type` or `controller`.', 'type', 'parameter_missing');
    }
    const requested = params.capabilities;
    const capabilities: Record<string, string> = {};
    if (requested !== undefined && typeof requested !== 'string') {
      for (const [name, value] of Object.entries(requested)) {
        if (typeof value === 'string' || value.requested !== 'true') continue;
        capabilities[name] = 'inactive';
      }
    }
    const account: StripeAccount = {
      id: stripeId('acct', 16),
      object: 'account',
      business_profile: { mcc: null, name: null, url: null },
      business_type: null,
      capabilities,
      charges_enabled: false,
      country: optionalString(params, 'country') ?? 'US',
      created: unixNow(),
      default_currency: 'usd',
      details_submitted: false,
      email: optionalString(params, 'email'),
      metadata: metadataOf(params),
      payouts_enabled: false,
      type: type ?? 'custom',
    };
    this.accounts.set(account.id, account);
    return account;
  }

  private createAccountLink(params: FormParams): Json {
    const accountId = requiredString(params, 'account');
    this.existing(this.accounts, 'account', accountId, { status: 400, param: 'account' });
    const type = requiredString(params, 'type');
    if (type !== 'account_onboarding' && type !== 'account_update') {
      throw invalid('Invalid type: must be one of account_onboarding or account_update', 'type');
    }
    const urls = { refresh_url: optionalString(params, 'refresh_url'), return_url: optionalString(params, 'return_url') };
    for (const [name, url] of Object.entries(urls)) {
      if (url !== null && !URL.canParse(url)) throw invalid('Not a valid URL', name, 'url_invalid');
    }
    const created = unixNow();
    const link = {
      object: 'account_link' as const,
      created,
      expires_at: created + 300,
      url: `https://connect.stripe.com/setup/e/${accountId}/${randomId(12)}`,
    };
    // What the link was asked for is not in Stripe's answer: kept so a test can see where the vendor would be sent.
    this.accountLinks.push({ ...link, account: accountId, type, ...urls });
    return link;
  }

  /** Only an Express account that finished onboarding has a dashboard to sign in to. */
  private createLoginLink(accountId: string): Json {
    const account = this.existing(this.accounts, 'account', accountId, { status: 404 });
    if (account.type !== 'express') throw invalid('Login links can only be created for Express accounts.', 'account');
    if (!account.details_submitted) {
      throw invalid('Cannot create a login link for an account that has not completed onboarding.', 'account');
    }
    const link = { object: 'login_link', created: unixNow(), url: `https://connect.stripe.com/express/${randomId(12)}` };
    this.loginLinks.push({ ...link, account: accountId });
    return link;
  }

  // ---- state changes shared by the API and the test controls

  private settle(intent: StripePaymentIntent): void {
    Object.assign(intent, {
      status: 'succeeded',
      amount_received: intent.amount,
      latest_charge: stripeId('ch'),
      last_payment_error: null,
    });
  }

  /** Returns the card error Stripe reports, which the intent keeps as `last_payment_error`. */
  private decline(intent: StripePaymentIntent, message: string): Json {
    const method = intent.payment_method ? this.paymentMethods.get(intent.payment_method) : undefined;
    const error = {
      type: 'card_error',
      code: 'card_declined',
      decline_code: 'generic_decline',
      doc_url: 'https://stripe.com/docs/error-codes/card-declined',
      message,
      ...(method ? { payment_method: copy(method) } : {}),
    };
    Object.assign(intent, { status: 'requires_payment_method', last_payment_error: error, latest_charge: stripeId('ch') });
    return error;
  }

  /**
   * Records the event Stripe would send a webhook for; `request` when an API call caused it, `account` for a
   * Connect event about a connected account.
   */
  private emit(type: string, object: Json, request?: RequestContext, account?: string): StripeEvent {
    const event: StripeEvent = {
      id: stripeId('evt'),
      object: 'event',
      ...(account ? { account } : {}),
      api_version: Stripe.API_VERSION,
      created: unixNow(),
      data: { object: copy(object) },
      livemode: false,
      pending_webhooks: 1,
      request: { id: request?.id ?? null, idempotency_key: request?.idempotencyKey ?? null },
      type,
    };
    this.events.push(event);
    return copy(event);
  }

  /**
   * The stored object. A test control given a wrong id throws; the API answers
   * Stripe's `resource_missing`: a 404 for the URL's own id, a 400 for an id
   * passed as a parameter (`param`).
   */
  private existing<T>(store: Map<string, T>, kind: string, id: string, answer?: { status: 400 | 404; param?: string }): T {
    const found = store.get(id);
    if (found) return found;
    if (!answer) throw new Error(`FakeStripe has no ${kind} ${id}`);
    const { status, param } = answer;
    throw new ApiError(
      status,
      stripeError('invalid_request_error', `No such ${kind}: '${id}'`, { code: 'resource_missing', ...(param ? { param } : {}) }),
    );
  }
}

export interface FakeStripeRequest {
  method: string;
  /** Without the query string (for a GET, the query is in `params`). */
  path: string;
  idempotencyKey: string | undefined;
  params: FormParams;
  status?: number;
  /** Answered from the stored response of an earlier request with the same idempotency key. */
  replayed: boolean;
}

/** Visa 4242 expiring 12/2030 unless told; `declineMessage` makes every charge of this card fail. */
export interface FakeCard {
  brand?: string;
  last4?: string;
  expMonth?: number;
  expYear?: number;
  declineMessage?: string;
}

export interface StripeEvent {
  id: string;
  object: 'event';
  /** Connect events: the connected account the event is about. */
  account?: string;
  api_version: string;
  created: number;
  data: { object: Json };
  livemode: false;
  pending_webhooks: number;
  request: { id: string | null; idempotency_key: string | null };
  type: string;
}

export interface StripeCustomer extends Json {
  id: string;
  object: 'customer';
  metadata: Record<string, string>;
}

export interface StripePaymentIntent extends Json {
  id: string;
  object: 'payment_intent';
  amount: number;
  amount_received: number;
  client_secret: string;
  currency: string;
  customer: string | null;
  description: string | null;
  last_payment_error: Json | null;
  metadata: Record<string, string>;
  payment_method: string | null;
  status: 'requires_payment_method' | 'requires_confirmation' | 'succeeded';
  created: number;
}

export interface StripeSetupIntent extends Json {
  id: string;
  object: 'setup_intent';
  client_secret: string;
  customer: string | null;
  metadata: Record<string, string>;
  payment_method: string | null;
  status: 'requires_payment_method' | 'succeeded';
  usage: string;
}

export interface StripeCheckoutSession extends Json {
  id: string;
  object: 'checkout.session';
  cancel_url: string | null;
  customer: string;
  expires_at: number;
  metadata: Record<string, string>;
  mode: string;
  setup_intent: string | null;
  status: 'open' | 'complete' | 'expired';
  success_url: string | null;
  /** Null once the session is complete. */
  url: string | null;
}

/** An account link as Stripe answered it, with what it was asked for. */
export interface FakeAccountLink {
  object: 'account_link';
  created: number;
  expires_at: number;
  url: string;
  account: string;
  type: string;
  refresh_url: string | null;
  return_url: string | null;
}

export interface StripeAccount extends Json {
  id: string;
  object: 'account';
  type: string;
  charges_enabled: boolean;
  details_submitted: boolean;
  payouts_enabled: boolean;
  metadata: Record<string, string>;
}

export interface StripePaymentMethod extends Json {
  id: string;
  object: 'payment_method';
  type: 'card';
  customer: string | null;
  card: { brand: string; last4: string; exp_month: number; exp_year: number } & Json;
}

/**
 * POSTs an event to the service's webhook route as Stripe does: the JSON
 * pretty-printed (so a handler must verify the raw bytes, not a re-serialization),
 * signed in `pay-signature` with `secret` at `timestamp` (now by default), or
 * with `header` as given (to test refusals).
 */
export async function deliverWebhook(
  appUrl: string,
  /** Usually a StripeEvent; anything else, to test what the service refuses. */
  event: unknown,
  secret: string,
  options: { timestamp?: Date; header?: string } = {},
  // The answer's JSON, as test/support/http's json() gives it.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
): Promise<{ status: number; body: any }> {
  const payload = JSON.stringify(event, null, 2);
  const signature = options.header ?? new WebhookSignature(secret).sign(payload, options.timestamp ?? new Date());
  const response = await fetch(`${appUrl}/v1/webhooks/pay`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json; charset=utf-8',
      'User-Agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
      'pay-signature': signature,
    },
    body: payload,
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: the text as is
  }
  return { status: response.status, body };
}

type Json = Record<string, unknown>;

/** Where Stripe serves Checkout's hosted pages (at checkout.stripe.com; here on the fake's own origin). */
const HOSTED_CHECKOUT_PATH = '/c/pay/';
const TEST_CARD = '4242424242424242';
const DECLINED_CARD = '4000000000000002';

interface RequestContext {
  /** `req_...`, as in the `Request-Id` header. */
  id: string;
  idempotencyKey: string | undefined;
}

interface StoredResponse {
  path: string;
  params: string;
  status: number;
  body: Json;
}

/** Stripe's error answer; the status goes with it. */
class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: Json,
  ) {
    super(JSON.stringify(body));
  }
}

function stripeError(type: string, message: string, extra: Json = {}): Json {
  return { error: { type, message, ...extra } };
}

function invalid(message: string, param: string, code = 'parameter_invalid'): ApiError {
  return new ApiError(400, stripeError('invalid_request_error', message, { code, param }));
}

function optionalString(params: FormParams, name: string): string | null {
  const value = params[name];
  if (value === undefined || value === '') return null;
  if (typeof value !== 'string') throw invalid(`Invalid string: ${name} must be a string`, name);
  return value;
}

function requiredString(params: FormParams, name: string): string {
  const value = optionalString(params, name);
  if (value === null) throw invalid(`Missing required param: ${name}.`, name, 'parameter_missing');
  return value;
}

function integer(params: FormParams, name: string): number {
  const value = requiredString(params, name);
  if (!/^-?\d+$/.test(value)) throw invalid(`Invalid integer: ${value}`, name, 'parameter_invalid_integer');
  return Number(value);
}

/** A list as the SDK sends it (`name[0]=a&name[1]=b`), which the form parser gives as an object keyed by index. */
function listOf(params: FormParams, name: string): string[] {
  const value = params[name];
  if (value === undefined || value === '') return [];
  if (typeof value === 'string') throw invalid(`Invalid array`, name);
  return Object.keys(value)
    .sort((a, b) => Number(a) - Number(b))
    .map((index) => {
      const item = value[index];
      if (typeof item !== 'string') throw invalid('Invalid array', name);
      return item;
    });
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function flag(params: FormParams, name: string): boolean {
  const value = optionalString(params, name);
  if (value === null || value === 'false') return false;
  if (value === 'true') return true;
  throw invalid(`Invalid boolean: ${value}`, name);
}

/** Stripe's metadata rules: at most 50 keys of up to 40 characters, values up to 500; an empty value sets nothing. */
function metadataOf(params: FormParams): Record<string, string> {
  const metadata: FormValue | undefined = params.metadata;
  if (metadata === undefined || metadata === '') return {};
  if (typeof metadata === 'string') throw invalid('Invalid object', 'metadata');
  const entries = Object.entries(metadata);
  if (entries.length > 50) throw invalid('Metadata can have at most 50 keys.', 'metadata');
  const result: Record<string, string> = {};
  for (const [key, value] of entries) {
    if (typeof value !== 'string') throw invalid(`Metadata values must be strings (metadata[${key}])`, `metadata[${key}]`);
    if (key.length > 40) throw invalid(`Metadata keys can be at most 40 characters long (${key})`, `metadata[${key}]`);
    if (value.length > 500) throw invalid('Metadata values can be at most 500 characters long.', `metadata[${key}]`);
    if (value !== '') result[key] = value;
  }
  return result;
}

/** Same parameters, whatever order they came in. */
function canonical(value: FormValue): string {
  if (typeof value === 'string') return JSON.stringify(value);
  const keys = Object.keys(value).sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`).join(',')}}`;
}

/** Stripe shows a wrong key with all but its prefix and last four characters starred. */
function masked(key: string): string {
  const prefix = /^[a-z]+_(?:test|live)_/.exec(key)?.[0] ?? '';
  return `${prefix}${'*'.repeat(Math.max(key.length - prefix.length - 4, 0))}${key.slice(-4)}`;
}

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

function randomId(length: number): string {
  return [...randomBytes(length)].map((byte) => ALPHANUMERIC[byte % ALPHANUMERIC.length]).join('');
}

function stripeId(prefix: string, length = 24): string {
  return `${prefix}_${randomId(length)}`;
}

function unixNow(): number {
  return Math.floor(Date.now() / 1000);
}

function copy<T>(value: T): T {
  return structuredClone(value);
}

function header(req: http.IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
