import * as http from 'node:http';
import { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { StripePaymentGateway } from '../../../src/modules/billing/adapters/stripe-payment-gateway';
import { WebhookSignature } from '../../../src/modules/billing/adapters/webhook-signature';
import { PaymentGatewayError } from '../../../src/modules/billing/domain/payment-gateway';
import { deliverWebhook, FakeStripe } from '../../support/fake-stripe';

// Ends in letters: its last four must not turn up by chance in a port number the messages name.
const SECRET_KEY = 'sk_test_gatewaySpecKeyQuxZ';

describe('StripePaymentGateway (the real SDK against a loopback Stripe)', () => {
  let stripe: FakeStripe;
  let gateway: StripePaymentGateway;

  beforeAll(async () => {
    stripe = await FakeStripe.start({ secretKey: SECRET_KEY });
    gateway = new StripePaymentGateway({ secretKey: SECRET_KEY, apiUrl: stripe.url });
  });
  afterAll(async () => stripe?.close());

  let keys = 0;
  const key = (name: string) => `${name}-${++keys}-${Date.now()}`;
  const requestsWith = (idempotencyKey: string) => stripe.requests.filter((request) => request.idempotencyKey === idempotencyKey);
  const newCustomer = async () =>
    (await gateway.createCustomer({ ownerId: 'usr_owner', idempotencyKey: key('customer') })).customerId;

  /** The error a call rejects with: a PaymentGatewayError that does not show `secretKey`. */
  const failure = async (promise: Promise<unknown>, secretKey = SECRET_KEY): Promise<PaymentGatewayError> => {
    const error = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(PaymentGatewayError);
    const { message, stack } = error as PaymentGatewayError;
    expect(message).not.toContain(secretKey);
    expect(stack).not.toContain(secretKey);
    expect(message).not.toContain(secretKey.slice(-4)); // not even Stripe's masked echo of it
    return error as PaymentGatewayError;
  };

  it('creates one customer per idempotency key, with our owner in its metadata', async () => {
    const idempotencyKey = key('customer');
    const before = stripe.count('customer');

    const first = await gateway.createCustomer({ ownerId: 'usr_ada', idempotencyKey });
    const again = await gateway.createCustomer({ ownerId: 'usr_ada', idempotencyKey });

    expect(first.customerId).toMatch(/^cus_[A-Za-z0-9]+$/);
    expect(again).toEqual(first);
    expect(stripe.count('customer')).toBe(before + 1);
    expect(stripe.customer(first.customerId)?.metadata).toEqual({ ownerId: 'usr_ada' });
    expect(requestsWith(idempotencyKey)).toEqual([
      {
        method: 'POST',
        path: '/v1/customers',
        idempotencyKey,
        params: { metadata: { ownerId: 'usr_ada' } },
        status: 200,
        replayed: false,
      },
      {
        method: 'POST',
        path: '/v1/customers',
        idempotencyKey,
        params: { metadata: { ownerId: 'usr_ada' } },
        status: 200,
        replayed: true,
      },
    ]);

    const other = await gateway.createCustomer({ ownerId: 'usr_ada', idempotencyKey: key('customer') });
    expect(other.customerId).not.toBe(first.customerId);
  });

  it('creates a payment intent whose client secret and metadata are Stripe-shaped, once per key', async () => {
    const customerId = await newCustomer();
    const idempotencyKey = key('top-up');
    const request = {
      amountCents: 2_500,
      customerId,
      metadata: { topUpId: 'tu_123', walletId: 'wal_456', note: 'a&b=c [x] 50% ✓' },
      description: 'Wallet top-up',
      idempotencyKey,
    };

    const intent = await gateway.createPaymentIntent(request);

    expect(intent).toEqual({
      id: expect.stringMatching(/^pi_/),
      clientSecret: expect.any(String),
      amountCents: 2_500,
      status: 'requires_payment_method',
    });
    expect(intent.clientSecret).toMatch(/^pi_[A-Za-z0-9]+_secret_[A-Za-z0-9]+$/);
    expect(intent.clientSecret.startsWith(`${intent.id}_secret_`)).toBe(true);
    expect(stripe.paymentIntent(intent.id)).toMatchObject({
      amount: 2_500,
      currency: 'usd',
      customer: customerId,
      description: 'Wallet top-up',
      metadata: request.metadata,
    });
    expect(requestsWith(idempotencyKey)[0].params).toEqual({
      amount: '2500',
      currency: 'usd',
      customer: customerId,
      description: 'Wallet top-up',
      metadata: request.metadata,
    });

    const count = stripe.count('payment_intent');
    expect(await gateway.createPaymentIntent(request)).toEqual(intent);
    expect(stripe.count('payment_intent')).toBe(count);

    // The same key for another amount is a bug of ours, which Stripe refuses rather than guess.
    const reused = await failure(gateway.createPaymentIntent({ ...request, amountCents: 9_900 }));
    expect(reused.message).toMatch(/^Stripe could not create a payment intent: 400 idempotency_error: .*same parameters/);
    expect(reused.cause).toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
  });

  it('creates an intent without a customer or description', async () => {
    const intent = await gateway.createPaymentIntent({ amountCents: 500, metadata: {}, idempotencyKey: key('anonymous') });

    expect(stripe.paymentIntent(intent.id)).toMatchObject({ customer: null, description: null, metadata: {} });
    expect(requestsWith(stripe.requests.at(-1)!.idempotencyKey!)[0].params).toEqual({ amount: '500', currency: 'usd' });
  });

  it('charges a saved card off-session', async () => {
    const customerId = await newCustomer();
    const card = stripe.addPaymentMethod(customerId);
    const idempotencyKey = key('auto-top-up');

    const charge = await gateway.chargeOffSession({
      amountCents: 1_000,
      customerId,
      paymentMethodId: card.id,
      metadata: { topUpId: 'tu_auto' },
      idempotencyKey,
    });

    expect(charge).toMatchObject({ id: expect.stringMatching(/^pi_/), amountCents: 1_000, status: 'succeeded' });
    expect(charge.failureMessage).toBeUndefined();
    expect(requestsWith(idempotencyKey)[0].params).toEqual({
      amount: '1000',
      currency: 'usd',
      customer: customerId,
      payment_method: card.id,
      off_session: 'true',
      confirm: 'true',
      metadata: { topUpId: 'tu_auto' },
    });
    expect(stripe.events.at(-1)).toMatchObject({
      type: 'payment_intent.succeeded',
      request: { idempotency_key: idempotencyKey },
      data: {
        object: { id: charge.id, amount: 1_000, amount_received: 1_000, customer: customerId, metadata: { topUpId: 'tu_auto' } },
      },
    });
  });

  it('answers a declined off-session charge as failed, with the intent and the reason, the same on a retry', async () => {
    const customerId = await newCustomer();
    const card = stripe.addPaymentMethod(customerId);
    const request = {
      amountCents: 1_000,
      customerId,
      paymentMethodId: card.id,
      metadata: { topUpId: 'tu_declined' },
      idempotencyKey: key('declined'),
    };
    stripe.declineOffSessionCharges('Your card has insufficient funds.');

    try {
      const charge = await gateway.chargeOffSession(request);

      expect(charge).toEqual({
        id: expect.stringMatching(/^pi_/),
        clientSecret: expect.stringMatching(/^pi_[A-Za-z0-9]+_secret_[A-Za-z0-9]+$/),
        amountCents: 1_000,
        status: 'failed',
        failureMessage: 'Your card has insufficient funds.',
      });
      expect(stripe.paymentIntent(charge.id)).toMatchObject({
        status: 'requires_payment_method',
        last_payment_error: { type: 'card_error', code: 'card_declined', message: 'Your card has insufficient funds.' },
      });
      // The webhook Stripe sends names the same intent.
      expect(stripe.events.at(-1)).toMatchObject({ type: 'payment_intent.payment_failed', data: { object: { id: charge.id } } });

      const count = stripe.count('payment_intent');
      expect(await gateway.chargeOffSession(request)).toEqual(charge);
      expect(stripe.count('payment_intent')).toBe(count);
      expect(requestsWith(request.idempotencyKey).map(({ status, replayed }) => ({ status, replayed }))).toEqual([
        { status: 402, replayed: false },
        { status: 402, replayed: true },
      ]);
    } finally {
      stripe.declineOffSessionCharges(null);
    }
  });

  it('declines the charges of a card that declines, and only those', async () => {
    const customerId = await newCustomer();
    const { id: setupIntentId } = await gateway.createSetupIntent({ customerId, metadata: {}, idempotencyKey: key('setup') });
    const event = stripe.completeSetupIntent(setupIntentId, { declineMessage: 'Your card was declined.' });
    const declining = event.data.object.payment_method as string;
    const good = stripe.addPaymentMethod(customerId);
    const charge = (paymentMethodId: string) =>
      gateway.chargeOffSession({ amountCents: 700, customerId, paymentMethodId, metadata: {}, idempotencyKey: key('charge') });

    expect(await charge(declining)).toMatchObject({ status: 'failed', failureMessage: 'Your card was declined.' });
    expect(await charge(good.id)).toMatchObject({ status: 'succeeded' });
  });

  it('saves a card through a setup intent and shows only its brand, last four digits and expiry', async () => {
    const customerId = await newCustomer();
    const idempotencyKey = key('setup');

    const setup = await gateway.createSetupIntent({ customerId, metadata: { ownerId: 'usr_ada' }, idempotencyKey });

    expect(setup).toEqual({
      id: expect.stringMatching(/^seti_/),
      clientSecret: expect.stringMatching(/^seti_[A-Za-z0-9]+_secret_[A-Za-z0-9]+$/),
    });
    expect(requestsWith(idempotencyKey)[0].params).toEqual({
      customer: customerId,
      metadata: { ownerId: 'usr_ada' },
      usage: 'off_session',
    });
    expect(await gateway.listPaymentMethods(customerId)).toEqual([]);

    const event = stripe.completeSetupIntent(setup.id);

    expect(event).toEqual({
      id: expect.stringMatching(/^evt_/),
      object: 'event',
      api_version: Stripe.API_VERSION,
      created: expect.any(Number),
      data: {
        object: expect.objectContaining({
          id: setup.id,
          object: 'setup_intent',
          customer: customerId,
          metadata: { ownerId: 'usr_ada' },
          payment_method: expect.stringMatching(/^pm_/),
          status: 'succeeded',
          usage: 'off_session',
        }),
      },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type: 'setup_intent.succeeded',
    });
    expect(Math.abs(event.created - Date.now() / 1000)).toBeLessThan(60);
    const paymentMethodId = event.data.object.payment_method as string;
    const visa = { id: paymentMethodId, brand: 'visa', last4: '4242', expMonth: 12, expYear: 2030 };

    // toStrictEqual: no other key may come along (the fake's card has a fingerprint, country, funding...).
    expect(await gateway.listPaymentMethods(customerId)).toStrictEqual([visa]);
    expect(await gateway.retrievePaymentMethod(paymentMethodId)).toStrictEqual(visa);
    expect(stripe.requests.at(-2)).toMatchObject({
      method: 'GET',
      path: `/v1/customers/${customerId}/payment_methods`,
      params: { type: 'card', limit: '100' },
    });

    const mastercard = stripe.addPaymentMethod(customerId, { brand: 'mastercard', last4: '4444', expMonth: 3, expYear: 2031 });
    expect(await gateway.listPaymentMethods(customerId)).toStrictEqual([
      { id: mastercard.id, brand: 'mastercard', last4: '4444', expMonth: 3, expYear: 2031 },
      visa,
    ]);
  });

  it('lists every card of a customer, across pages', async () => {
    const customerId = await newCustomer();
    const ids = Array.from({ length: 103 }, () => stripe.addPaymentMethod(customerId).id);
    const before = stripe.requests.length;

    const cards = await gateway.listPaymentMethods(customerId);

    expect(cards.map((card) => card.id)).toEqual(ids.reverse());
    const pages = stripe.requests.slice(before);
    expect(pages.map((request) => request.params)).toEqual([
      { type: 'card', limit: '100' },
      { type: 'card', limit: '100', starting_after: ids[99] },
    ]);
  });

  it('opens a billing portal session for a customer', async () => {
    const customerId = await newCustomer();

    const session = await gateway.createPortalSession({ customerId, returnUrl: 'https://app.example.com/wallet' });

    expect(session.url).toMatch(/^https:\/\/billing\.stripe\.com\/p\/session\/test_[A-Za-z0-9]+$/);
    expect(stripe.requests.at(-1)).toMatchObject({
      method: 'POST',
      path: '/v1/billing_portal/sessions',
      params: { customer: customerId, return_url: 'https://app.example.com/wallet' },
    });
  });

  it('creates one Express connected account per idempotency key, able to receive transfers, tagged with the vendor', async () => {
    const idempotencyKey = key('account');
    const before = stripe.count('account');

    const [first, again] = await Promise.all([
      gateway.createConnectedAccount({ vendorId: 'vendor-1', idempotencyKey }),
      gateway.createConnectedAccount({ vendorId: 'vendor-1', idempotencyKey }),
    ]);

    expect(first.accountId).toMatch(/^acct_[A-Za-z0-9]+$/);
    expect(again).toEqual(first);
    expect(stripe.count('account')).toBe(before + 1);
    expect(stripe.account(first.accountId)).toMatchObject({
      type: 'express',
      metadata: { vendorId: 'vendor-1' },
      capabilities: { transfers: 'inactive' },
      charges_enabled: false,
      details_submitted: false,
    });
    expect(requestsWith(idempotencyKey).map((r) => [r.path, r.params])).toEqual([
      [
        '/v1/accounts',
        { type: 'express', capabilities: { transfers: { requested: 'true' } }, metadata: { vendorId: 'vendor-1' } },
      ],
      [
        '/v1/accounts',
        { type: 'express', capabilities: { transfers: { requested: 'true' } }, metadata: { vendorId: 'vendor-1' } },
      ],
    ]);
  });

  it('links to onboarding, and to the Express dashboard once onboarding is complete', async () => {
    const { accountId } = await gateway.createConnectedAccount({ vendorId: 'vendor-2', idempotencyKey: key('account') });

    const link = await gateway.createAccountLink({
      accountId,
      refreshUrl: 'https://app.example.com/vendor/onboarding/refresh',
      returnUrl: 'https://app.example.com/vendor/onboarding/return',
    });
    expect(link.url).toMatch(new RegExp(`^https://connect\\.stripe\\.com/setup/e/${accountId}/`));
    expect(stripe.requests.at(-1)).toMatchObject({
      method: 'POST',
      path: '/v1/account_links',
      params: {
        account: accountId,
        type: 'account_onboarding',
        refresh_url: 'https://app.example.com/vendor/onboarding/refresh',
        return_url: 'https://app.example.com/vendor/onboarding/return',
      },
    });

    const early = await failure(gateway.createLoginLink(accountId));
    expect(early.message).toContain('has not completed onboarding');

    const event = stripe.completeOnboarding(accountId);
    expect(event).toMatchObject({
      type: 'account.updated',
      account: accountId,
      data: { object: { id: accountId, charges_enabled: true, details_submitted: true, metadata: { vendorId: 'vendor-2' } } },
    });
    const login = await gateway.createLoginLink(accountId);
    expect(login.url).toMatch(/^https:\/\/connect\.stripe\.com\/express\//);
    expect(stripe.requests.at(-1)).toMatchObject({ method: 'POST', path: `/v1/accounts/${accountId}/login_links`, status: 200 });

    const unknown = await failure(gateway.createLoginLink('acct_nobody'));
    expect(unknown.message).toContain("404 invalid_request_error resource_missing: No such account: 'acct_nobody'");
  });

  it('reports Stripe refusing a request it could not serve', async () => {
    const missing = await failure(gateway.retrievePaymentMethod('pm_doesNotExist'));
    expect(missing.message).toMatch(
      /^Stripe could not retrieve a payment method: 404 invalid_request_error resource_missing: No such payment_method: 'pm_doesNotExist' \(request req_/,
    );
    expect(missing.cause).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);

    const unknownCustomer = await failure(
      gateway.createPortalSession({ customerId: 'cus_nobody', returnUrl: 'https://app.example.com' }),
    );
    expect(unknownCustomer.message).toContain("400 invalid_request_error resource_missing: No such customer: 'cus_nobody'");
  });

  it('reports a wrong key without showing it', async () => {
    const wrongKey = 'sk_test_wrongKeyAbcdefghij98765';
    const wrong = new StripePaymentGateway({ secretKey: wrongKey, apiUrl: stripe.url });

    const error = await failure(wrong.createCustomer({ ownerId: 'usr_ada', idempotencyKey: key('wrong-key') }), wrongKey);

    expect(error.message).toMatch(
      /^Stripe could not create a customer: 401 invalid_request_error: Invalid API Key provided: \[redacted\] \(request req_/,
    );
    expect(error.cause).toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
  });

  it('reports an unreachable Stripe, after retrying, without showing the key', async () => {
    const closed = await FakeStripe.start({ secretKey: SECRET_KEY });
    await closed.close();
    const offline = new StripePaymentGateway({ secretKey: SECRET_KEY, apiUrl: closed.url });

    const error = await failure(offline.createCustomer({ ownerId: 'usr_ada', idempotencyKey: key('offline') }));

    expect(error.message).toBe(
      `Stripe could not create a customer: no answer from ${closed.url} (ECONNREFUSED; An error occurred with our connection to Stripe. Request was retried 2 times.)`,
    );
    expect(error.cause).toBeInstanceOf(Stripe.errors.StripeConnectionError);
  });

  it('retries a 5xx with the same idempotency key, and reports one that lasts', async () => {
    const idempotencyKey = key('flaky');
    stripe.failNextRequests(1, 503);

    const { customerId } = await gateway.createCustomer({ ownerId: 'usr_ada', idempotencyKey });

    expect(requestsWith(idempotencyKey).map((request) => request.status)).toEqual([503, 200]);
    expect(stripe.customer(customerId)).toBeDefined();

    stripe.failNextRequests(3, 500);
    const error = await failure(gateway.createSetupIntent({ customerId, metadata: {}, idempotencyKey: key('down') }));
    expect(error.message).toMatch(/^Stripe could not create a setup intent: 500 api_error: An unknown error occurred/);
  });

  it('gives up on a Stripe that does not answer within the timeout', async () => {
    const impatient = new StripePaymentGateway({
      secretKey: SECRET_KEY,
      apiUrl: stripe.url,
      timeoutMs: 300,
      maxNetworkRetries: 0,
    });
    stripe.stallNextRequests(1);

    const error = await failure(impatient.createCustomer({ ownerId: 'usr_ada', idempotencyKey: key('stalled') }));

    expect(error.message).toBe(
      `Stripe could not create a customer: no answer from ${stripe.url} (Request aborted due to timeout being reached (300ms))`,
    );
  });
});

describe('FakeStripe, over plain HTTP', () => {
  let stripe: FakeStripe;
  beforeAll(async () => {
    stripe = await FakeStripe.start({ secretKey: SECRET_KEY });
  });
  afterAll(async () => stripe?.close());

  const post = (path: string, body: string, headers: Record<string, string> = {}) =>
    fetch(`${stripe.url}${path}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${SECRET_KEY}`, 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
      body,
    });

  it('asks for a key the way Stripe does', async () => {
    const response = await fetch(`${stripe.url}/v1/customers`, { method: 'POST', body: '' });

    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer realm="Stripe"');
    expect(await response.json()).toEqual({
      error: { type: 'invalid_request_error', message: expect.stringContaining('You did not provide an API key') },
    });
  });

  it('refuses an idempotency key reused for another endpoint', async () => {
    expect((await post('/v1/customers', 'metadata[ownerId]=usr_1', { 'Idempotency-Key': 'shared-key' })).status).toBe(200);

    const response = await post('/v1/setup_intents', 'usage=off_session', { 'Idempotency-Key': 'shared-key' });

    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: { type: 'idempotency_error', message: expect.stringContaining("('/v1/customers' vs '/v1/setup_intents')") },
    });
  });

  it('answers a replay with the stored response and says so', async () => {
    const first = await post('/v1/customers', 'metadata[a]=1&metadata[b]=2', { 'Idempotency-Key': 'replay-key' });
    const replay = await post('/v1/customers', 'metadata[b]=2&metadata[a]=1', { 'Idempotency-Key': 'replay-key' });

    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(await replay.json()).toEqual(await first.json());
  });

  it("does not save a refused request's answer under its key, so the fixed request can reuse it", async () => {
    const refused = await post('/v1/payment_intents', 'amount=10&currency=usd', { 'Idempotency-Key': 'fix-me' });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({
      error: { type: 'invalid_request_error', code: 'amount_too_small', param: 'amount' },
    });

    expect((await post('/v1/payment_intents', 'amount=1000&currency=usd', { 'Idempotency-Key': 'fix-me' })).status).toBe(200);
  });

  it("applies Stripe's metadata limits and refuses malformed bodies", async () => {
    const longKey = await post('/v1/customers', `metadata[${'k'.repeat(41)}]=v`);
    expect(longKey.status).toBe(400);
    expect(await longKey.json()).toMatchObject({
      error: { type: 'invalid_request_error', message: expect.stringContaining('40 characters') },
    });

    const malformed = await post('/v1/customers', 'metadata=x&metadata[a]=b');
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({
      error: { type: 'invalid_request_error', message: expect.stringContaining('both a value and an object') },
    });
  });

  it('answers 404 for an unknown object or route', async () => {
    const auth = { Authorization: `Bearer ${SECRET_KEY}` };
    const missing = await fetch(`${stripe.url}/v1/payment_intents/pi_missing`, { headers: auth });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({
      error: { type: 'invalid_request_error', code: 'resource_missing', message: "No such payment_intent: 'pi_missing'" },
    });

    const route = await fetch(`${stripe.url}/v1/charges`, { headers: auth });
    expect(route.status).toBe(404);
    expect(await route.json()).toMatchObject({
      error: { message: expect.stringContaining('Unrecognized request URL (GET: /v1/charges)') },
    });
  });

  it('settles and fails intents on request, returning the events Stripe would send', async () => {
    const created = (await (await post('/v1/payment_intents', 'amount=1500&currency=usd&metadata[topUpId]=tu_9')).json()) as {
      id: string;
    };

    const failed = stripe.failPaymentIntent(created.id, 'Your card was declined.');
    expect(failed).toMatchObject({
      type: 'payment_intent.payment_failed',
      data: {
        object: {
          id: created.id,
          amount: 1500,
          currency: 'usd',
          metadata: { topUpId: 'tu_9' },
          status: 'requires_payment_method',
          last_payment_error: { message: 'Your card was declined.' },
        },
      },
    });

    const succeeded = stripe.succeedPaymentIntent(created.id);
    expect(succeeded).toMatchObject({
      type: 'payment_intent.succeeded',
      data: {
        object: {
          id: created.id,
          status: 'succeeded',
          amount_received: 1500,
          last_payment_error: null,
          payment_method: expect.stringMatching(/^pm_/),
        },
      },
    });
    expect(succeeded.id).not.toBe(failed.id);
    expect(stripe.events.slice(-2).map((event) => event.id)).toEqual([failed.id, succeeded.id]);
    expect(() => stripe.succeedPaymentIntent(created.id)).toThrow('already succeeded');

    const fetched = await fetch(`${stripe.url}/v1/payment_intents/${created.id}`, {
      headers: { Authorization: `Bearer ${SECRET_KEY}` },
    });
    expect(await fetched.json()).toMatchObject({ id: created.id, status: 'succeeded' });
  });
});

describe('deliverWebhook', () => {
  const secret = 'whsec_deliverSpecSecret';
  let received: { path: string; headers: http.IncomingHttpHeaders; raw: Buffer }[];
  let server: http.Server;
  let appUrl: string;

  beforeAll(async () => {
    received = [];
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        received.push({ path: req.url ?? '', headers: req.headers, raw: Buffer.concat(chunks) });
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end('{"received":true}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    appUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => new Promise<void>((resolve) => server.close(() => resolve())));

  const event = async () => {
    const stripe = await FakeStripe.start();
    try {
      const { id } = await new StripePaymentGateway({ secretKey: stripe.secretKey, apiUrl: stripe.url }).createPaymentIntent({
        amountCents: 900,
        metadata: { topUpId: 'tu_hook' },
        idempotencyKey: 'hook',
      });
      return stripe.succeedPaymentIntent(id);
    } finally {
      await stripe.close();
    }
  };

  it('posts the event to /v1/webhooks/pay, signed over its exact bytes', async () => {
    const succeeded = await event();

    const answer = await deliverWebhook(appUrl, succeeded, secret);

    expect(answer).toEqual({ status: 200, body: { received: true } });
    const { path, headers, raw } = received.at(-1)!;
    expect(path).toBe('/v1/webhooks/pay');
    expect(headers['content-type']).toBe('application/json; charset=utf-8');
    expect(JSON.parse(raw.toString('utf8'))).toEqual(succeeded);
    expect(new WebhookSignature(secret).verifies(raw, headers['pay-signature'] as string, new Date())).toBe(true);
    expect(new WebhookSignature('whsec_other').verifies(raw, headers['pay-signature'] as string, new Date())).toBe(false);
  });

  it('signs at the given time, or sends the given header as is', async () => {
    const succeeded = await event();
    const anHourAgo = new Date(Date.now() - 3_600_000);

    await deliverWebhook(appUrl, succeeded, secret, { timestamp: anHourAgo });
    const old = received.at(-1)!;
    expect(old.headers['pay-signature']).toMatch(new RegExp(`^t=${Math.floor(anHourAgo.getTime() / 1000)},v1=[0-9a-f]{64}`));
    expect(new WebhookSignature(secret).verifies(old.raw, old.headers['pay-signature'] as string, new Date())).toBe(false);
    expect(new WebhookSignature(secret).verifies(old.raw, old.headers['pay-signature'] as string, anHourAgo)).toBe(true);

    await deliverWebhook(appUrl, succeeded, secret, { header: 't=1,v1=deadbeef' });
    expect(received.at(-1)!.headers['pay-signature']).toBe('t=1,v1=deadbeef');
  });
});

describe('StripePaymentGateway.listSucceededPaymentIntents (the list API, every page)', () => {
  let stripe: FakeStripe;
  let gateway: StripePaymentGateway;

  beforeAll(async () => {
    stripe = await FakeStripe.start({ secretKey: SECRET_KEY });
    gateway = new StripePaymentGateway({ secretKey: SECRET_KEY, apiUrl: stripe.url });
  });
  afterAll(async () => stripe?.close());

  it('answers every succeeded intent across pages, with our metadata, and none that did not succeed', async () => {
    const succeeded: string[] = [];
    for (let i = 0; i < 205; i++) {
      const intent = await gateway.createPaymentIntent({
        amountCents: 100 + i,
        metadata: { topUpId: `tu_${i}`, purpose: 'top_up' },
        idempotencyKey: `list-${i}`,
      });
      if (i % 3 !== 0) {
        stripe.succeedPaymentIntent(intent.id);
        succeeded.push(intent.id);
      }
    }
    const pagesBefore = stripe.listedPages;

    const listed = await gateway.listSucceededPaymentIntents();

    expect(stripe.listedPages - pagesBefore).toBe(3);
    expect(listed.map((intent) => intent.id).sort()).toEqual([...succeeded].sort());
    const one = listed.find((intent) => intent.id === succeeded[0])!;
    expect(one).toEqual({
      id: succeeded[0],
      amountCents: 101,
      metadata: { topUpId: 'tu_1', purpose: 'top_up' },
      createdAt: expect.any(String),
    });
    expect(await gateway.listSucceededPaymentIntents({ to: new Date(Date.now() - 3_600_000) })).toEqual([]);
  });
});

describe('StripePaymentGateway.createCardSetupSession (Checkout in setup mode, and its hosted page)', () => {
  const secret = 'whsec_checkoutSpecSecret';
  let stripe: FakeStripe;
  let gateway: StripePaymentGateway;
  let sdk: Stripe;
  let received: { raw: Buffer; signature: string }[];
  let receiver: http.Server;

  beforeAll(async () => {
    stripe = await FakeStripe.start({ secretKey: SECRET_KEY });
    gateway = new StripePaymentGateway({ secretKey: SECRET_KEY, apiUrl: stripe.url });
    const { port } = new URL(stripe.url);
    sdk = new Stripe(SECRET_KEY, { host: '127.0.0.1', port: Number(port), protocol: 'http', maxNetworkRetries: 0 });
    received = [];
    receiver = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        received.push({ raw: Buffer.concat(chunks), signature: String(req.headers['pay-signature']) });
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end('{"received":true}');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    stripe.sendWebhooksTo(`http://127.0.0.1:${(receiver.address() as AddressInfo).port}`, secret);
  });
  afterAll(async () => {
    await stripe?.close();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  });

  let keys = 0;
  const newCustomer = async () =>
    (await gateway.createCustomer({ ownerId: 'user-buyer', idempotencyKey: `cs-customer-${++keys}-${Date.now()}` })).customerId;
  const request = (customerId: string, idempotencyKey = `cs-${++keys}-${Date.now()}`) => ({
    customerId,
    successUrl: 'http://web.example/checkout/l1?card=added',
    cancelUrl: 'http://web.example/checkout/l1?card=canceled',
    metadata: { ownerId: 'user-u1' },
    setupIntentMetadata: { ownerKind: 'user', ownerId: 'u1' },
    idempotencyKey,
  });
  const submitCard = (url: string, cardNumber: string) =>
    fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ cardNumber }).toString(),
      redirect: 'manual',
    });

  it('creates one setup-mode session per idempotency key, for the customer, cards only, with both return URLs', async () => {
    const customerId = await newCustomer();
    const asked = request(customerId);
    const before = stripe.count('checkout.session');

    const first = await gateway.createCardSetupSession(asked);
    const again = await gateway.createCardSetupSession(asked);

    expect(first.id).toMatch(/^cs_test_[A-Za-z0-9]+$/);
    expect(first.url).toBe(`${stripe.url}/c/pay/${first.id}`);
    expect(again).toEqual(first);
    expect(stripe.count('checkout.session')).toBe(before + 1);
    expect(stripe.requests.filter((r) => r.idempotencyKey === asked.idempotencyKey)).toEqual([
      expect.objectContaining({ path: '/v1/checkout/sessions', status: 200, replayed: false }),
      expect.objectContaining({ path: '/v1/checkout/sessions', status: 200, replayed: true }),
    ]);
    expect(stripe.requests.at(-1)!.params).toEqual({
      mode: 'setup',
      customer: customerId,
      allowed_payment_method_types: { '0': 'card' },
      success_url: asked.successUrl,
      cancel_url: asked.cancelUrl,
      metadata: { ownerId: 'user-u1' },
      setup_intent_data: { metadata: { ownerKind: 'user', ownerId: 'u1' } },
    });
    expect(stripe.checkoutSession(first.id)).toMatchObject({
      object: 'checkout.session',
      mode: 'setup',
      customer: customerId,
      status: 'open',
      setup_intent: null,
      metadata: { ownerId: 'user-u1' },
    });
  });

  it('reports an unknown customer as Stripe does', async () => {
    const error = await gateway.createCardSetupSession(request('cus_nobody')).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(PaymentGatewayError);
    expect((error as Error).message).toContain("400 invalid_request_error resource_missing: No such customer: 'cus_nobody'");
  });

  it('refuses a session without mode, success_url or customer, in Stripe’s error shape', async () => {
    const customer = await newCustomer();
    const refusal = async (params: Record<string, unknown>) => {
      const error = await sdk.checkout.sessions.create(params as Stripe.Checkout.SessionCreateParams).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
      const { statusCode, code, param, message } = error as Stripe.errors.StripeInvalidRequestError;
      return { statusCode, code, param, message };
    };
    const complete = { mode: 'setup', customer, success_url: 'http://web.example/ok', allowed_payment_method_types: ['card'] };

    expect(await refusal({ ...complete, mode: undefined })).toEqual({
      statusCode: 400,
      code: 'parameter_missing',
      param: 'mode',
      message: 'Missing required param: mode.',
    });
    expect(await refusal({ ...complete, success_url: undefined })).toMatchObject({
      code: 'parameter_missing',
      param: 'success_url',
    });
    expect(await refusal({ ...complete, customer: undefined })).toMatchObject({ code: 'parameter_missing', param: 'customer' });
    expect(await refusal({ ...complete, success_url: 'not a url' })).toMatchObject({ code: 'url_invalid' });
    expect(await refusal({ ...complete, allowed_payment_method_types: undefined })).toMatchObject({ param: 'currency' });
  });

  it('saves the test card on the hosted page: a succeeded SetupIntent with our metadata, both webhooks signed, back to success_url', async () => {
    const customerId = await newCustomer();
    const session = await gateway.createCardSetupSession(request(customerId));

    const form = await fetch(session.url);
    expect(form.status).toBe(200);
    expect(await form.text()).toContain('name="cardNumber"');

    const declined = await submitCard(session.url, '4000 0000 0000 0002');
    expect(declined.status).toBe(402);
    expect(await declined.text()).toContain('Your card was declined.');
    expect(stripe.checkoutSession(session.id)?.status).toBe('open');

    const before = received.length;
    const saved = await submitCard(session.url, '4242 4242 4242 4242');
    expect(saved.status).toBe(303);
    expect(saved.headers.get('location')).toBe('http://web.example/checkout/l1?card=added');

    const completed = stripe.checkoutSession(session.id)!;
    expect(completed).toMatchObject({ status: 'complete', url: null, setup_intent: expect.stringMatching(/^seti_/) });
    const intent = stripe.setupIntent(completed.setup_intent!)!;
    expect(intent).toMatchObject({
      status: 'succeeded',
      customer: customerId,
      metadata: { ownerKind: 'user', ownerId: 'u1' },
      payment_method: expect.stringMatching(/^pm_/),
    });
    expect(await gateway.listPaymentMethods(customerId)).toEqual([
      expect.objectContaining({ id: intent.payment_method, brand: 'visa', last4: '4242' }),
    ]);

    const delivered = received.slice(before);
    expect(delivered.map(({ raw }) => JSON.parse(raw.toString('utf8')).type)).toEqual([
      'setup_intent.succeeded',
      'checkout.session.completed',
    ]);
    for (const { raw, signature } of delivered) {
      expect(new WebhookSignature(secret).verifies(raw, signature, new Date())).toBe(true);
    }
    expect(JSON.parse(delivered[0].raw.toString('utf8')).data.object).toMatchObject({
      id: intent.id,
      customer: customerId,
      payment_method: intent.payment_method,
    });
    expect(stripe.deliveries.slice(-2)).toEqual([
      { type: 'setup_intent.succeeded', status: 200 },
      { type: 'checkout.session.completed', status: 200 },
    ]);

    // A completed session's page takes no second card.
    expect((await submitCard(session.url, '4242 4242 4242 4242')).status).toBe(410);
  });
});
