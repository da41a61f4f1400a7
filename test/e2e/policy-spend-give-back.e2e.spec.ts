import { randomUUID } from 'node:crypto';
import { CommandBus } from '@nestjs/cqrs';
import { loadConfig } from '../../src/config/app-config';
import { EventStore } from '../../src/event-store/event-store';
import { foldStream } from '../../src/event-store/fold-stream';
import { PolicyLedger } from '../../src/modules/policies/commands/policy-ledger';
import { policyStreamId, spendPolicyDecider } from '../../src/modules/policies/domain';
import { FailCardPurchaseCommand } from '../../src/modules/purchasing/commands/fail-card-purchase/fail-card-purchase.command';
import { FailCardPurchaseHandler } from '../../src/modules/purchasing/commands/fail-card-purchase/fail-card-purchase.handler';
import { Clock } from '../../src/platform/clock/clock';
import { runProjectionsCli } from '../../src/projections/cli/projections-cli';
import { Caller, callerFor, eventually, newCaller } from '../support/accounts';
import { startTestApp, TestApp } from '../support/app';
import { CatalogSeed, SeedVendor } from '../support/catalog-seed';
import { openPool } from '../support/database';
import { deliverWebhook, FakeStripe, StripeEvent } from '../support/fake-stripe';
import { json } from '../support/http';

const WEBHOOK_SECRET = 'whsec_policy_give_back';

/**
 * Issue 30, finding 4: a card purchase whose payment fails gives its spend back
 * to the policy of the token that made it, so the budget is the money that
 * really moved. Through the Stripe SDK against a loopback Stripe.
 */
describe('a failed card purchase gives its spend back to the spend policy', () => {
  let stripe: FakeStripe;
  let app: TestApp;
  let seed: CatalogSeed;
  let vendor: SeedVendor;

  beforeAll(async () => {
    stripe = await FakeStripe.start();
    app = await startTestApp({
      env: { STRIPE_SECRET_KEY: stripe.secretKey, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_URL: stripe.url },
    });
    seed = await CatalogSeed.for(app);
    vendor = await seed.vendor(`giveback-${randomUUID().slice(0, 8)}`);
  });
  afterAll(async () => {
    await app.close();
    await stripe.close();
  });

  const listing = (priceCents: number) => seed.listing({ vendor, slug: `pkg-${randomUUID().slice(0, 8)}`, priceCents });
  const deliver = (event: unknown) => deliverWebhook(app.url, event, WEBHOOK_SECRET);
  const buyByCard = (agent: Caller, listingId: string) => agent.call('POST', '/v1/purchases', { listingId });
  const policyEvents = async (policyId: string) =>
    (await app.server.app.get(EventStore).readStream(policyStreamId(policyId))).map((e) => ({ type: e.type, ...e.data }));
  const intentOf = (orderId: string) =>
    stripe.events.find((e) => (e.data.object as { metadata: Record<string, string> }).metadata.orderId === orderId)!;

  /** The processor's later word that an intent failed, as its `payment_intent.payment_failed` webhook says it. */
  function paymentFailed(charged: StripeEvent, message = 'Your card has insufficient funds.'): StripeEvent {
    return {
      ...charged,
      id: `evt_${randomUUID().replace(/-/g, '')}`,
      type: 'payment_intent.payment_failed',
      data: {
        object: {
          ...(charged.data.object as object),
          status: 'requires_payment_method',
          last_payment_error: { type: 'card_error', code: 'card_declined', decline_code: 'insufficient_funds', message },
        },
      },
    };
  }

  /** An owner with a saved card, and an agent token bound to their policy `{dailyLimitCents: 1000}`. */
  async function agentWithDailyLimit(): Promise<{ owner: Caller; agent: Caller; policyId: string }> {
    const owner = await newCaller(app);
    const { clientSecret } = await json(await owner.call('POST', '/v1/billing/setup-intent'));
    await deliver(stripe.completeSetupIntent(clientSecret.split('_secret_')[0]));
    await eventually(
      async () => (await json(await owner.call('GET', '/v1/billing/payment-methods'))).paymentMethods.length === 1,
    );
    const created = await owner.call('POST', '/v1/policies', { name: 'agent budget', dailyLimitCents: 1_000 });
    expect(created.status).toBe(201);
    const { id: policyId } = await json(created);
    const minted = await owner.call('POST', '/v1/auth/tokens', { name: 'agent', scopes: ['purchase', 'read'], policyId });
    expect(minted.status).toBe(201);
    const agent = callerFor(app, owner.userId, (await json(minted)).token);
    await eventually(async () => (await agent.call('GET', '/v1/wallet')).status === 200);
    return { owner, agent, policyId };
  }

  it('a card purchase of 800 declined at once leaves the whole 1,000 of the day: the next 500 buys', async () => {
    const { agent, policyId } = await agentWithDailyLimit();
    const [declined, next] = await Promise.all([listing(800), listing(500)]);

    stripe.declineOffSessionCharges('Your card was declined.');
    try {
      const refused = await buyByCard(agent, declined.listingId);
      expect(refused.status).toBe(402);
      expect((await json(refused)).reason).toMatch(/declined/);
    } finally {
      stripe.declineOffSessionCharges(null);
    }

    const bought = await buyByCard(agent, next.listingId);
    expect(bought.status).toBe(200);
    expect(await json(bought)).toMatchObject({ status: 'purchased', amountCents: 500 });
    const events = await policyEvents(policyId);
    expect(events.filter((e) => e.type !== 'SpendPolicyCreated')).toEqual([
      expect.objectContaining({ type: 'PolicySpendRecorded', amountCents: 800, provisional: true }),
      expect.objectContaining({ type: 'PolicySpendReleased', amountCents: 800, reason: expect.stringMatching(/declined/) }),
      expect.objectContaining({ type: 'PolicySpendRecorded', amountCents: 500, provisional: true }),
    ]);
  });

  it('a card purchase the processor fails later (webhook) gives its spend back then, once however often it is told', async () => {
    const { agent, policyId } = await agentWithDailyLimit();
    const [first, second, third, fourth] = await Promise.all([listing(800), listing(500), listing(500), listing(1)]);

    const pending = await json(await buyByCard(agent, first.listingId));
    expect(pending).toMatchObject({ status: 'purchased', amountCents: 800 });
    // Still counted while the processor has not spoken: 800 + 500 would pass the day's 1,000.
    const refused = await buyByCard(agent, second.listingId);
    expect(refused.status).toBe(402);
    expect((await json(refused)).reason).toMatch(/800 cents is spent today/);

    const failed = paymentFailed(intentOf(pending.orderId));
    // Delivered, redelivered, and twice more at once (as a retrying processor may): one give-back.
    expect((await deliver(failed)).status).toBe(200);
    expect((await deliver(failed)).status).toBe(200);
    await Promise.all([deliver(failed), deliver({ ...failed, id: `evt_${randomUUID().replace(/-/g, '')}` })]);
    await eventually(
      async () =>
        (await json(await agent.call('GET', '/v1/orders'))).orders.some((o: { status: string }) => o.status === 'failed'),
      { description: 'the order to fail' },
    );
    await eventually(async () => (await policyEvents(policyId)).some((e) => e.type === 'PolicySpendReleased'), {
      description: 'the spend to be given back',
    });

    expect((await buyByCard(agent, second.listingId)).status).toBe(200);
    expect((await buyByCard(agent, third.listingId)).status).toBe(200);
    // Given back once: 500 + 500 is the whole day, and one cent more needs approval.
    const over = await buyByCard(agent, fourth.listingId);
    expect(over.status).toBe(402);
    expect(await json(over)).toMatchObject({ rule: 'dailyLimitCents' });
    expect((await policyEvents(policyId)).filter((e) => e.type === 'PolicySpendReleased')).toEqual([
      expect.objectContaining({ purchaseId: pending.orderId, amountCents: 800, reason: 'Your card has insufficient funds.' }),
    ]);
  });

  it("commits with the order's failure or not at all: killed before the commit, the redelivery gives back once", async () => {
    const { agent, policyId } = await agentWithDailyLimit();
    const { listingId } = await listing(800);
    const pending = await json(await buyByCard(agent, listingId));
    const store = app.server.app.get(EventStore);
    const killed = Object.assign(Object.create(store) as EventStore, {
      appendAtomically: () => Promise.reject(new Error('killed before the commit')),
    });
    const command = new FailCardPurchaseCommand(pending.orderId, null, 'Your card was declined.');
    const dying = new FailCardPurchaseHandler(killed, app.server.app.get(PolicyLedger), app.server.app.get(Clock));
    await expect(dying.execute(command)).rejects.toThrow('killed');
    expect((await policyEvents(policyId)).map((e) => e.type)).toEqual(['SpendPolicyCreated', 'PolicySpendRecorded']);
    expect((await store.readStream(`order-${pending.orderId}`)).map((e) => e.type)).not.toContain('OrderPaymentFailed');

    // Run again, as the redelivered event would, and once more: one failure, one give-back.
    const bus = app.server.app.get(CommandBus);
    await bus.execute(command);
    await bus.execute(command);
    expect((await policyEvents(policyId)).map((e) => e.type)).toEqual([
      'SpendPolicyCreated',
      'PolicySpendRecorded',
      'PolicySpendReleased',
    ]);
    expect((await store.readStream(`order-${pending.orderId}`)).filter((e) => e.type === 'OrderPaymentFailed')).toHaveLength(1);
  });

  it('a paid card purchase settles its spend for good: a failure reported afterwards gives nothing back', async () => {
    const { agent, policyId } = await agentWithDailyLimit();
    const [paid, next] = await Promise.all([listing(800), listing(500)]);
    const bought = await json(await buyByCard(agent, paid.listingId));
    const succeeded = intentOf(bought.orderId);
    expect(succeeded.type).toBe('payment_intent.succeeded');
    await deliver(succeeded);
    await eventually(async () => (await policyEvents(policyId)).some((e) => e.type === 'PolicySpendSettled'), {
      description: 'the spend to be settled',
    });
    await deliver(paymentFailed(succeeded));
    expect((await buyByCard(agent, next.listingId)).status).toBe(402);
    expect((await policyEvents(policyId)).map((e) => e.type)).toEqual([
      'SpendPolicyCreated',
      'PolicySpendRecorded',
      'PolicySpendSettled',
    ]);
  });

  it('replay agrees: a fold of the whole stream is the state decisions use, and rebuilt read models are unchanged', async () => {
    const { agent, policyId } = await agentWithDailyLimit();
    const [declined, kept] = await Promise.all([listing(700), listing(300)]);
    const pending = await json(await buyByCard(agent, declined.listingId));
    await deliver(paymentFailed(intentOf(pending.orderId)));
    await eventually(async () => (await policyEvents(policyId)).some((e) => e.type === 'PolicySpendReleased'));
    expect((await buyByCard(agent, kept.listingId)).status).toBe(200);

    const store = app.server.app.get(EventStore);
    const decided = await app.server.app.get(PolicyLedger).fold(policyId);
    const replayed = await foldStream(
      store,
      policyStreamId(policyId),
      spendPolicyDecider.evolve,
      spendPolicyDecider.initialState,
    );
    expect(replayed.state).toEqual(decided.state);
    expect(replayed.state).toMatchObject({ spend: { dayCents: 300 } });

    const pool = openPool(app.db.url, 1);
    try {
      const readModels = async () => ({
        policies: (
          await pool.query(
            `SELECT name, daily_limit_cents, monthly_limit_cents, max_per_purchase_cents, require_approval_above_cents,
                    vendor_allowlist, blocked_types, active FROM spend_policies WHERE id = $1`,
            [policyId],
          )
        ).rows,
        orders: (
          await pool.query(
            'SELECT id, status, amount_cents, funding_source, payment_intent_id FROM orders WHERE user_id = $1 ORDER BY id',
            [agent.userId],
          )
        ).rows,
      });
      const before = await readModels();
      expect(before.orders.map((o) => o.status).sort()).toEqual(['failed', 'pending']);
      const config = loadConfig({ DATABASE_URL: app.db.url, LOG_LEVEL: 'silent' });
      for (const projection of ['spend-policies', 'purchases'])
        expect(await runProjectionsCli(['rebuild', projection], config, () => undefined)).toBe(0);
      expect(await readModels()).toEqual(before);
    } finally {
      await pool.end();
    }
  });
});
