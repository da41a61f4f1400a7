import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { loadConfig } from '../../src/config/app-config';
import { EventStore, RecordedEvent } from '../../src/event-store/event-store';
import { runLedgerCli } from '../../src/ledger/ledger-cli';
import { ProjectionWaiter } from '../../src/projections/read-your-writes';
import { Caller, callerFor, eventually, newCaller } from '../support/accounts';
import { startTestApp, TestApp } from '../support/app';
import { CatalogSeed, SeedVendor } from '../support/catalog-seed';
import { FakeStripe } from '../support/fake-stripe';
import { json } from '../support/http';

const CARD = 'Pay-Sandbox-Card';

/**
 * Issue 30, finding 7: the sandbox takes the processor's test cards, and a
 * decline travels the road a real one does (the processor's signed
 * `payment_intent.payment_failed`, delivered by the sandbox to the webhook),
 * so top-ups, card purchases and auto top-ups fail as they would with Stripe.
 */
describe('the sandbox with the processor test cards, settling by itself', () => {
  let app: TestApp;
  let seed: CatalogSeed;
  let vendor: SeedVendor;

  beforeAll(async () => {
    app = await startTestApp({ env: { PAY_SANDBOX_AUTO_SETTLE: 'true' } });
    seed = await CatalogSeed.for(app);
    vendor = await seed.vendor(`cards-${randomUUID().slice(0, 8)}`);
  });
  afterAll(() => app.close());

  const store = () => app.server.app.get(EventStore);
  const sandboxRow = async (table: 'sandbox_payment_intents' | 'sandbox_setup_intents', id: string) =>
    (await app.server.app.get(DataSource).query(`SELECT * FROM ${table} WHERE id = $1`, [id]))[0];
  const intentIdOf = (clientSecret: string) => clientSecret.split('_secret_')[0];
  const balanceOf = async (caller: Caller) => (await json(await caller.call('GET', '/v1/wallet'))).balanceCents as number;
  const listing = (priceCents: number) => seed.listing({ vendor, slug: `pkg-${randomUUID().slice(0, 8)}`, priceCents });

  /** Asks for a top-up paid with `card`; answers the top-up's own stream once the processor's word on it is recorded. */
  async function topUp(caller: Caller, amountCents: number, card: string): Promise<RecordedEvent[]> {
    const answer = await caller.call('POST', '/v1/wallet/top-up', { amountCents }, { [CARD]: card });
    expect(answer.status).toBe(200);
    const intentId = intentIdOf((await json(answer)).clientSecret);
    const { topUpId } = (await sandboxRow('sandbox_payment_intents', intentId)).metadata;
    return eventually(
      async () => {
        const events = await store().readStream(`top-up-${topUpId}`);
        return events.some((e) => e.type === 'TopUpSucceeded' || e.type === 'TopUpFailed') && events;
      },
      { description: `the sandbox's word on top-up ${topUpId}` },
    );
  }

  /** Saves `card` through a setup intent, as the web's card form does; answers the settled setup intent's row. */
  async function saveCard(caller: Caller, card: string) {
    const answer = await caller.call('POST', '/v1/billing/setup-intent', undefined, { [CARD]: card });
    expect(answer.status).toBe(200);
    const setupId = intentIdOf((await json(answer)).clientSecret);
    return eventually(async () => {
      const row = await sandboxRow('sandbox_setup_intents', setupId);
      return row.event_id !== null && row;
    });
  }

  const paymentMethods = async (caller: Caller) =>
    (await json(await caller.call('GET', '/v1/billing/payment-methods'))).paymentMethods as { last4: string }[];

  it('4242 4242 4242 4242 succeeds: the top-up is credited', async () => {
    const caller = await newCaller(app);
    const events = await topUp(caller, 2_000, '4242 4242 4242 4242');
    expect(events.map((e) => e.type)).toContain('TopUpSucceeded');
    await eventually(async () => (await balanceOf(caller)) === 2_000);
  });

  it('4000 0000 0000 0002 declines a top-up (card_declined), and 4000 0000 0000 9995 for insufficient funds', async () => {
    const caller = await newCaller(app);
    for (const [card, reason] of [
      ['4000000000000002', 'Your card was declined.'],
      ['4000 0000 0000 9995', 'Your card has insufficient funds.'],
    ]) {
      const events = await topUp(caller, 1_500, card);
      expect(events.map((e) => e.type)).not.toContain('TopUpSucceeded');
      expect(events.find((e) => e.type === 'TopUpFailed')!.data).toMatchObject({
        reason,
        processorEventId: expect.stringMatching(/^evt_/),
      });
    }
    // The processor's words, as our webhook stored them, carry the decline's message.
    const failures = (await store().readAll({ maxCount: 100_000 })).filter(
      (e) => e.type === 'PaymentEventReceived' && e.data.eventType === 'payment_intent.payment_failed',
    );
    expect(failures.map((e) => e.data.failureMessage)).toEqual(
      expect.arrayContaining(['Your card was declined.', 'Your card has insufficient funds.']),
    );
    expect(await balanceOf(caller)).toBe(0);
    expect((await json(await caller.call('GET', '/v1/wallet/transactions'))).transactions).toEqual([]);
  });

  it('0002 and 9995 cannot be saved, as with the processor; 0341 saves fine', async () => {
    const caller = await newCaller(app);
    expect(await saveCard(caller, '4000000000000002')).toMatchObject({ status: 'failed', decline_code: 'generic_decline' });
    expect(await saveCard(caller, '4000000000009995')).toMatchObject({ status: 'failed', decline_code: 'insufficient_funds' });
    expect(await paymentMethods(caller)).toEqual([]);
    expect(await saveCard(caller, '4000 0000 0000 0341')).toMatchObject({ status: 'succeeded' });
    await eventually(async () => (await paymentMethods(caller)).length === 1);
    expect(await paymentMethods(caller)).toEqual([expect.objectContaining({ brand: 'visa', last4: '0341' })]);
  });

  it('0341: a card purchase with it is declined (card_declined) and fails, and gives its spend back to the policy', async () => {
    const owner = await newCaller(app);
    await saveCard(owner, '4000000000000341');
    await eventually(async () => (await paymentMethods(owner)).length === 1);
    await topUp(owner, 1_000, '4242424242424242');
    const policy = await json(await owner.call('POST', '/v1/policies', { name: 'agent', dailyLimitCents: 1_000 }));
    const minted = await json(
      await owner.call('POST', '/v1/auth/tokens', { name: 'agent', scopes: ['purchase', 'read'], policyId: policy.id }),
    );
    const agent = callerFor(app, owner.userId, minted.token);
    await eventually(async () => (await agent.call('GET', '/v1/wallet')).status === 200);
    const [declined, next] = await Promise.all([listing(800), listing(500)]);

    const refused = await agent.call('POST', '/v1/purchases', { listingId: declined.listingId });
    expect(refused.status).toBe(402);
    expect(await json(refused)).toMatchObject({
      status: 'approval_required',
      reason: 'The card was declined: Your card was declined.',
    });
    const [order] = (await json(await owner.call('GET', '/v1/orders'))).orders;
    expect(order).toMatchObject({ status: 'failed', fundingSource: 'card', amountCents: 800 });
    // The sandbox announces the decline too, as the processor does: the order fails once, the spend comes back once.
    const orderStream = () => store().readStream(`order-${order.id}`);
    await eventually(async () => {
      const received = (await store().readAll({ maxCount: 100_000 })).filter(
        (e) => e.type === 'PaymentEventReceived' && (e.data.metadata as Record<string, string>).orderId === order.id,
      );
      return received.length === 1 && received[0].data.eventType === 'payment_intent.payment_failed';
    });
    expect((await orderStream()).filter((e) => e.type === 'OrderPaymentFailed')).toHaveLength(1);

    const bought = await agent.call('POST', '/v1/purchases', { listingId: next.listingId, useWallet: true });
    expect(bought.status).toBe(200);
    const policyEvents = await store().readStream(`policy-${policy.id}`);
    expect(policyEvents.filter((e) => e.type === 'PolicySpendReleased')).toHaveLength(1);
  });

  it('0341: an auto top-up charging it is declined, and the wallet may ask again', async () => {
    const caller = await newCaller(app);
    await saveCard(caller, '4000000000000341');
    await eventually(async () => (await paymentMethods(caller)).length === 1);
    await topUp(caller, 2_000, '4242424242424242');
    await eventually(async () => (await balanceOf(caller)) === 2_000);
    const configured = await caller.call('PATCH', '/v1/wallet/auto-top-up', {
      enabled: true,
      thresholdCents: 1_000,
      amountCents: 1_500,
    });
    expect(configured.status).toBe(200);

    const { listingId } = await listing(1_500);
    expect((await caller.call('POST', '/v1/purchases', { listingId, useWallet: true })).status).toBe(200);
    const walletStream = `wallet-user-${caller.userId}`;
    const failed = await eventually(
      async () => (await store().readStream(walletStream)).find((e) => e.type === 'AutoTopUpFailed') ?? false,
      { description: 'the auto top-up to fail' },
    );
    expect(failed.data).toMatchObject({ reason: 'Your card was declined.' });
    const { topUpId } = failed.data as { topUpId: string };
    const topUpEvents = await store().readStream(`top-up-${topUpId}`);
    expect(topUpEvents.map((e) => e.type)).toEqual(['TopUpRequested', 'TopUpFailed']);
    expect(await balanceOf(caller)).toBe(500);
    const { transactions } = await json(await caller.call('GET', '/v1/wallet/transactions'));
    expect(transactions.map((t: { type: string }) => t.type)).toEqual(['purchase', 'top_up']);
  });

  it('leaves books that reconcile: declines, given-back spend and failed top-ups move no money', async () => {
    const head = await store().headPosition();
    expect(await app.server.app.get(ProjectionWaiter).waitFor(head!, undefined, 20_000)).toBe(true);
    const lines: string[] = [];
    await runLedgerCli(['reconcile', '--json'], loadConfig({ DATABASE_URL: app.db.url, LOG_LEVEL: 'silent' }), {
      print: (text) => lines.push(text),
    });
    const report = JSON.parse(lines.join('\n'));
    expect(report.findings).toEqual([]);
    expect(report.trialBalanceCents).toBe(0);
  });

  it('refuses a number that is no test card with a 400 naming the ones it takes, before anything is asked of it', async () => {
    const caller = await newCaller(app);
    for (const [card, message] of [
      ['5555 5555 5555 4444', /takes only test cards.*4242 4242 4242 4242 succeeds/],
      ['1234', /card number is incorrect/],
    ] as const) {
      const answer = await caller.call('POST', '/v1/wallet/top-up', { amountCents: 1_000 }, { [CARD]: card });
      expect(answer.status).toBe(400);
      expect((await json(answer)).message).toMatch(message);
    }
    // Refused before the top-up was recorded or the processor asked: nothing of it anywhere.
    const requested = (await store().readAll({ maxCount: 100_000 })).filter(
      (e) => e.type === 'TopUpRequested' && (e.data.owner as { id: string }).id === caller.userId,
    );
    expect(requested).toEqual([]);
  });
});

describe('the sandbox test card header on a server that takes payments through the processor', () => {
  it('is refused with a 400: no test card can be forced on real payments', async () => {
    const stripe = await FakeStripe.start();
    const app = await startTestApp({
      env: { STRIPE_SECRET_KEY: stripe.secretKey, STRIPE_WEBHOOK_SECRET: 'whsec_header', STRIPE_API_URL: stripe.url },
    });
    try {
      const caller = await newCaller(app);
      const answer = await caller.call('POST', '/v1/wallet/top-up', { amountCents: 1_000 }, { [CARD]: '4000000000000002' });
      expect(answer.status).toBe(400);
      expect((await json(answer)).message).toMatch(/payment sandbox/);
      expect(stripe.count('payment_intent')).toBe(0);
    } finally {
      await app.close();
      await stripe.close();
    }
  });
});
