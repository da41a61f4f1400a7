import { randomUUID } from 'node:crypto';
import { CommandBus } from '@nestjs/cqrs';
import { EventStore } from '../../src/event-store/event-store';
import { StripePaymentGateway } from '../../src/modules/billing/adapters/stripe-payment-gateway';
import { DebitWalletCommand } from '../../src/modules/wallet/commands/debit-wallet/debit-wallet.command';
import { userWallet } from '../../src/modules/wallet/domain/wallet-owner';
import { Caller, eventually, newCaller } from '../support/accounts';
import { startTestApp, TestApp } from '../support/app';
import { deliverWebhook, FakeStripe } from '../support/fake-stripe';
import { json } from '../support/http';

const WEBHOOK_SECRET = 'whsec_wallet_e2e';

describe('wallets and top-ups, through the Stripe SDK against a loopback Stripe', () => {
  let stripe: FakeStripe;
  let app: TestApp;
  let caller: Caller;

  beforeAll(async () => {
    stripe = await FakeStripe.start();
    app = await startTestApp({
      env: { STRIPE_SECRET_KEY: stripe.secretKey, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_URL: stripe.url },
    });
    caller = await newCaller(app);
  });
  afterAll(async () => {
    await app.close();
    await stripe.close();
  });

  const wallet = async (who: Caller = caller) => json(await who.call('GET', '/v1/wallet'));
  const transactions = async (who: Caller = caller, query = '') => json(await who.call('GET', `/v1/wallet/transactions${query}`));
  const intentOf = (clientSecret: string) => clientSecret.split('_secret_')[0];
  const deliver = (event: unknown, options?: Parameters<typeof deliverWebhook>[3]) =>
    deliverWebhook(app.url, event, WEBHOOK_SECRET, options);
  /** Customers the processor created (not replays) for one of our owners. */
  const customersCreatedFor = (ownerId: string) =>
    stripe.requests.filter(
      (r) =>
        r.method === 'POST' &&
        r.path === '/v1/customers' &&
        !r.replayed &&
        r.status === 200 &&
        (r.params.metadata as Record<string, unknown> | undefined)?.ownerId === ownerId,
    );

  /** A top-up the processor reports paid; answers once the balance shows it. */
  async function topUp(who: Caller, amountCents: number): Promise<string> {
    const before = (await wallet(who)).balanceCents;
    const answer = await who.call('POST', '/v1/wallet/top-up', { amountCents });
    expect(answer.status).toBe(200);
    const intentId = intentOf((await json(answer)).clientSecret);
    expect((await deliver(stripe.succeedPaymentIntent(intentId))).status).toBe(200);
    await eventually(async () => (await wallet(who)).balanceCents === before + amountCents, {
      description: `a top-up of ${amountCents} to be credited`,
    });
    return intentId;
  }

  it('reads an empty wallet with auto top-up off', async () => {
    expect(await wallet(await newCaller(app))).toEqual({
      balanceCents: 0,
      autoTopUpEnabled: false,
      autoTopUpThresholdCents: 500,
      autoTopUpAmountCents: 2000,
    });
  });

  it('credits a top-up when the signed webhook arrives, not before, and lists it as a top_up transaction', async () => {
    const me = await newCaller(app);
    const answer = await me.call('POST', '/v1/wallet/top-up', { amountCents: 1500 });
    expect(answer.status).toBe(200);
    const { clientSecret } = await json(answer);
    expect(clientSecret).toMatch(/^pi_[A-Za-z0-9]+_secret_[A-Za-z0-9]+$/);
    const intent = stripe.paymentIntent(intentOf(clientSecret));
    expect(intent).toMatchObject({ amount: 1500, currency: 'usd' });
    const created = stripe.requests.find(
      (r) => r.method === 'POST' && r.path === '/v1/payment_intents' && r.params.amount === '1500',
    );
    expect(created?.idempotencyKey).toEqual(intent?.metadata.topUpId);
    expect((await wallet(me)).balanceCents).toBe(0);

    const delivered = await deliver(stripe.succeedPaymentIntent(intentOf(clientSecret)));
    expect(delivered.status).toBe(200);
    expect(delivered.body).toEqual({ received: true });
    await eventually(async () => (await wallet(me)).balanceCents === 1500, { description: 'the top-up to be credited' });
    const { transactions: lines, hasMore, nextCursor } = await transactions(me);
    expect(lines).toHaveLength(1);
    expect(Object.keys(lines[0]).sort()).toEqual(['amountCents', 'balanceAfterCents', 'createdAt', 'description', 'id', 'type']);
    expect(lines[0]).toMatchObject({ type: 'top_up', amountCents: 1500, balanceAfterCents: 1500 });
    expect({ hasMore, nextCursor }).toEqual({ hasMore: false, nextCursor: null });
  });

  it('credits the same event once, delivered 10 times in a row and 10 at once, and a second event for the intent credits nothing', async () => {
    const me = await newCaller(app);
    const { clientSecret } = await json(await me.call('POST', '/v1/wallet/top-up', { amountCents: 700 }));
    const event = stripe.succeedPaymentIntent(intentOf(clientSecret));
    for (let i = 0; i < 10; i++) expect((await deliver(event)).status).toBe(200);
    const burst = await Promise.all(Array.from({ length: 10 }, () => deliver(event)));
    expect(burst.map((r) => r.status)).toEqual(Array(10).fill(200));
    // Another event about the same intent (a new event id): still one credit.
    expect((await deliver({ ...event, id: `evt_${randomUUID().replace(/-/g, '')}` })).status).toBe(200);
    await eventually(async () => (await wallet(me)).balanceCents === 700);
    // Give a double credit, were there one, time to show.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await wallet(me)).balanceCents).toBe(700);
    expect((await transactions(me)).transactions).toHaveLength(1);
  });

  it('refuses a missing, wrong, stale or future-dated signature and a body that is not an event: 400, nothing changes', async () => {
    const me = await newCaller(app);
    const { clientSecret } = await json(await me.call('POST', '/v1/wallet/top-up', { amountCents: 900 }));
    const event = stripe.succeedPaymentIntent(intentOf(clientSecret));
    const bad = [
      await deliver(event, { header: '' }),
      await deliverWebhook(app.url, event, 'whsec_someone_else'),
      await deliver(event, { timestamp: new Date(Date.now() - 301_000) }),
      // Signed for an hour from now: the SDK bounds only the age, we bound the future too.
      await deliver(event, { timestamp: new Date(Date.now() + 3600_000) }),
      await deliver(event, { header: 't=abc,v1=zz' }),
      await deliver({ hello: 'world' }),
      await deliver({ ...(event as object), data: null }),
    ];
    for (const answer of bad) {
      expect(answer.status).toBe(400);
      expect(typeof answer.body.message).toBe('string');
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await wallet(me)).balanceCents).toBe(0);
    // A clock 30 s ahead of ours is ordinary skew.
    expect((await deliver(event, { timestamp: new Date(Date.now() + 30_000) })).status).toBe(200);
    await eventually(async () => (await wallet(me)).balanceCents === 900);
  });

  it('acknowledges an intent it never created and event types it does not handle, crediting nothing', async () => {
    // An intent someone else made with the same processor account: no top-up of ours in its metadata.
    const notOurs = await new StripePaymentGateway({ secretKey: stripe.secretKey, apiUrl: stripe.url }).createPaymentIntent({
      amountCents: 4200,
      metadata: {},
      idempotencyKey: randomUUID(),
    });
    const foreign = stripe.succeedPaymentIntent(notOurs.id);
    expect((await deliver(foreign)).status).toBe(200);
    const unmatchedId = notOurs.id;
    await eventually(
      async () => (await app.server.app.get(EventStore).readStream(`unmatched-payment-${unmatchedId}`)).length === 1,
      {
        description: 'the unmatched payment to be recorded',
      },
    );
    expect(
      (
        await deliver({
          id: `evt_${randomUUID().replace(/-/g, '')}`,
          object: 'event',
          type: 'customer.created',
          created: 1,
          data: { object: { id: 'cus_1' } },
        })
      ).status,
    ).toBe(200);
  });

  it.each([
    ['below 500', { amountCents: 499 }],
    ['above 50000', { amountCents: 50_001 }],
    ['a fraction', { amountCents: 10.5 }],
    ['a string', { amountCents: '1000' }],
    ['missing', {}],
  ])('refuses a top-up amount that is %s with a 400 naming the field', async (_, body) => {
    const answer = await caller.call('POST', '/v1/wallet/top-up', body);
    expect(answer.status).toBe(400);
    expect((await json(answer)).message).toMatch(/amountCents/);
  });

  it('answers 502 with Retry-After when the processor fails, and never a 500', async () => {
    stripe.failNextRequests(3, 500);
    const answer = await caller.call('POST', '/v1/wallet/top-up', { amountCents: 500 });
    expect(answer.status).toBe(502);
    expect(answer.headers.get('retry-after')).toBe('5');
    expect((await json(answer)).message).toMatch(/payment processor/);
  });

  it('needs the purchase scope to top up (403), any token to read', async () => {
    const reader = await newCaller(app, ['read']);
    expect((await reader.call('POST', '/v1/wallet/top-up', { amountCents: 500 })).status).toBe(403);
    expect((await reader.call('PATCH', '/v1/wallet/auto-top-up', { enabled: false })).status).toBe(403);
    expect((await reader.call('GET', '/v1/wallet')).status).toBe(200);
    expect((await reader.call('GET', '/v1/wallet/transactions')).status).toBe(200);
    expect((await fetch(`${app.url}/v1/wallet`)).status).toBe(401);
  });

  it('replays a top-up retried with its Idempotency-Key: the same client secret, one intent at the processor', async () => {
    const me = await newCaller(app);
    const key = randomUUID();
    const first = await me.call('POST', '/v1/wallet/top-up', { amountCents: 1200 }, { 'idempotency-key': key });
    const retry = await me.call('POST', '/v1/wallet/top-up', { amountCents: 1200 }, { 'idempotency-key': key });
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await retry.text()).toBe(await first.text());
    const other = await me.call('POST', '/v1/wallet/top-up', { amountCents: 1300 }, { 'idempotency-key': key });
    expect(other.status).toBe(422);
  });

  it('saves a card when setup_intent.succeeded arrives, showing only brand, last four and expiry', async () => {
    const me = await newCaller(app);
    expect(await json(await me.call('GET', '/v1/billing/payment-methods'))).toEqual({
      hasStripeCustomer: false,
      paymentMethods: [],
    });
    const answer = await me.call('POST', '/v1/billing/setup-intent');
    expect(answer.status).toBe(200);
    const { clientSecret } = await json(answer);
    expect(clientSecret).toMatch(/^seti_[A-Za-z0-9]+_secret_[A-Za-z0-9]+$/);
    expect(await json(await me.call('GET', '/v1/billing/payment-methods'))).toEqual({
      hasStripeCustomer: true,
      paymentMethods: [],
    });
    expect((await deliver(stripe.completeSetupIntent(intentOf(clientSecret)))).status).toBe(200);
    const methods = await eventually(async () => {
      const body = await json(await me.call('GET', '/v1/billing/payment-methods'));
      return body.paymentMethods.length === 1 && body;
    });
    expect(methods.hasStripeCustomer).toBe(true);
    expect(Object.keys(methods.paymentMethods[0]).sort()).toEqual(['brand', 'expMonth', 'expYear', 'id', 'last4']);
    expect(methods.paymentMethods[0]).toMatchObject({ brand: 'visa', last4: '4242' });
  });

  it('stops listing a card the processor reports detached, and a top-up canceled before payment credits nothing', async () => {
    const me = await newCaller(app);
    const { clientSecret } = await json(await me.call('POST', '/v1/billing/setup-intent'));
    await deliver(stripe.completeSetupIntent(intentOf(clientSecret)));
    const [card] = await eventually(async () => {
      const { paymentMethods } = await json(await me.call('GET', '/v1/billing/payment-methods'));
      return paymentMethods.length === 1 && paymentMethods;
    });
    const detached = {
      id: `evt_${randomUUID().replace(/-/g, '')}`,
      object: 'event',
      type: 'payment_method.detached',
      created: Math.floor(Date.now() / 1000),
      data: { object: { id: card.id, object: 'payment_method', customer: null } },
    };
    expect((await deliver(detached)).status).toBe(200);
    await eventually(async () => (await json(await me.call('GET', '/v1/billing/payment-methods'))).paymentMethods.length === 0, {
      description: 'the detached card to be removed',
    });
    expect((await me.call('PATCH', '/v1/wallet/auto-top-up', { enabled: true })).status).toBe(422);

    const top = await json(await me.call('POST', '/v1/wallet/top-up', { amountCents: 800 }));
    const paid = stripe.succeedPaymentIntent(intentOf(top.clientSecret));
    const canceled = {
      ...paid,
      id: `evt_${randomUUID().replace(/-/g, '')}`,
      type: 'payment_intent.canceled',
      data: { object: { ...(paid.data.object as object), status: 'canceled', cancellation_reason: 'abandoned' } },
    };
    expect((await deliver(canceled)).status).toBe(200);
    const topUpId = (paid.data.object as { metadata: Record<string, string> }).metadata.topUpId;
    await eventually(async () =>
      (await app.server.app.get(EventStore).readStream(`top-up-${topUpId}`)).some((e) => e.type === 'TopUpFailed'),
    );
    expect((await wallet(me)).balanceCents).toBe(0);
  });

  it('creates the processor customer once when two setup intents are asked for at once', async () => {
    const me = await newCaller(app);
    const answers = await Promise.all([me.call('POST', '/v1/billing/setup-intent'), me.call('POST', '/v1/billing/setup-intent')]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect(customersCreatedFor(`user-${me.userId}`)).toHaveLength(1);
  });

  it('answers a customer portal url', async () => {
    const answer = await caller.call('POST', '/v1/billing/portal-session');
    expect(answer.status).toBe(200);
    expect((await json(answer)).url).toMatch(/^https?:\/\//);
    const sessions = stripe.requests.filter((r) => r.method === 'POST' && r.path === '/v1/billing_portal/sessions');
    expect(sessions.length).toBeGreaterThan(0);
    for (const session of sessions) expect(session.idempotencyKey).toBeTruthy();
  });

  it('auto top-up: 422 without a card; with one, a burst of debits below the threshold charges once', async () => {
    const me = await newCaller(app);
    const refused = await me.call('PATCH', '/v1/wallet/auto-top-up', { enabled: true });
    expect(refused.status).toBe(422);
    expect((await json(refused)).message).toMatch(/payment method/);

    const { clientSecret } = await json(await me.call('POST', '/v1/billing/setup-intent'));
    await deliver(stripe.completeSetupIntent(intentOf(clientSecret)));
    await eventually(async () => (await json(await me.call('GET', '/v1/billing/payment-methods'))).paymentMethods.length === 1);
    const configured = await me.call('PATCH', '/v1/wallet/auto-top-up', {
      enabled: true,
      thresholdCents: 1000,
      amountCents: 2500,
    });
    expect(configured.status).toBe(200);
    expect(await json(configured)).toEqual({ autoTopUpEnabled: true, autoTopUpThresholdCents: 1000, autoTopUpAmountCents: 2500 });
    expect(await wallet(me)).toMatchObject({ autoTopUpEnabled: true, autoTopUpThresholdCents: 1000, autoTopUpAmountCents: 2500 });

    await topUp(me, 3000);
    const bus = app.server.app.get(CommandBus);
    const debits = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) =>
        bus.execute(new DebitWalletCommand(userWallet(me.userId), randomUUID(), 250, 'metered_usage', `call ${i}`)),
      ),
    );
    expect(debits.filter((d) => d.status === 'fulfilled')).toHaveLength(10);
    const customerId =
      customersCreatedFor(`user-${me.userId}`)[0] &&
      stripe.events.find(
        (e) =>
          e.type === 'setup_intent.succeeded' &&
          (e.data.object as { metadata: Record<string, string> }).metadata.ownerId === me.userId,
      )?.data.object.customer;
    const charges = () =>
      stripe.events.filter(
        (e) =>
          e.type === 'payment_intent.succeeded' &&
          (e.data.object as { customer: string | null; metadata: Record<string, string> }).customer === customerId &&
          (e.data.object as { metadata: Record<string, string> }).metadata.purpose === 'auto_top_up',
      );
    const [charge] = await eventually(async () => charges().length > 0 && charges(), { description: 'the auto top-up charge' });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(charges()).toHaveLength(1);
    expect((charge.data.object as { amount: number }).amount).toBe(2500);

    await deliver(charge);
    await eventually(async () => (await wallet(me)).balanceCents === 500 + 2500, {
      description: 'the auto top-up to be credited',
    });
    expect((await transactions(me)).transactions[0]).toMatchObject({
      type: 'auto_top_up',
      amountCents: 2500,
      balanceAfterCents: 3000,
    });
  });

  it('never goes below zero: 30 concurrent debits of 100 against 1000 leave 10 paid, 20 refused with 402, balance 0', async () => {
    const me = await newCaller(app);
    await topUp(me, 1000);
    const bus = app.server.app.get(CommandBus);
    const results = await Promise.allSettled(
      Array.from({ length: 30 }, (_, i) =>
        bus.execute(new DebitWalletCommand(userWallet(me.userId), randomUUID(), 100, 'purchase', `race ${i}`)),
      ),
    );
    const paid = results.filter((r) => r.status === 'fulfilled');
    const refused = results.filter((r) => r.status === 'rejected') as PromiseRejectedResult[];
    expect(paid).toHaveLength(10);
    expect(refused).toHaveLength(20);
    for (const r of refused)
      expect(r.reason).toMatchObject({ code: 'payment_required', details: { status: 'insufficient_balance' } });
    const stream = await app.server.app.get(EventStore).readStream(`wallet-user-${me.userId}`);
    expect(stream.map((e) => e.data.balanceAfterCents)).toEqual([1000, 900, 800, 700, 600, 500, 400, 300, 200, 100, 0]);
  });

  it('debits a retried debit id once', async () => {
    const me = await newCaller(app);
    await topUp(me, 1000);
    const bus = app.server.app.get(CommandBus);
    const debitId = randomUUID();
    const debit = () => bus.execute(new DebitWalletCommand(userWallet(me.userId), debitId, 300, 'purchase', 'once'));
    expect(await debit()).toEqual({ balanceAfterCents: 700, alreadyApplied: false });
    expect(await debit()).toEqual({ balanceAfterCents: 700, alreadyApplied: true });
    expect(await app.server.app.get(EventStore).readStream(`wallet-user-${me.userId}`)).toHaveLength(2);
  });

  it('walks 250 transactions with the cursor, newest first, each exactly once', async () => {
    const me = await newCaller(app);
    await topUp(me, 50_000);
    const bus = app.server.app.get(CommandBus);
    for (let i = 0; i < 249; i++)
      await bus.execute(new DebitWalletCommand(userWallet(me.userId), randomUUID(), 1, 'purchase', `purchase ${i}`));
    await eventually(async () => (await wallet(me)).balanceCents === 50_000 - 249);
    const seen: { id: string; balanceAfterCents: number }[] = [];
    let cursor: string | null = null;
    do {
      const page = await transactions(me, `?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      seen.push(...page.transactions);
      expect(page.hasMore).toBe(page.nextCursor !== null);
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toHaveLength(250);
    expect(new Set(seen.map((t) => t.id)).size).toBe(250);
    expect(seen.map((t) => t.balanceAfterCents)).toEqual([...seen.map((t) => t.balanceAfterCents)].sort((a, b) => a - b));
    expect(seen[seen.length - 1]).toMatchObject({ amountCents: 50_000 });
    const foreign = await caller.call(
      'GET',
      `/v1/wallet/transactions?cursor=${encodeURIComponent((await transactions(me, '?limit=1')).nextCursor)}`,
    );
    expect(foreign.status).toBe(400);
    expect((await caller.call('GET', '/v1/wallet/transactions?limit=101')).status).toBe(400);
    expect((await caller.call('GET', '/v1/wallet/transactions?limit=0')).status).toBe(400);
  });
});
