import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { EventStore } from '../../src/event-store/event-store';
import { Caller, eventually, newCaller } from '../support/accounts';
import { startTestApp, TestApp } from '../support/app';
import { CatalogSeed, SeedVendor } from '../support/catalog-seed';
import { json } from '../support/http';
import { fundWallet, saveSandboxCard, settleSandboxIntent } from '../support/wallet';

describe('purchases, entitlements and orders', () => {
  let app: TestApp;
  let seed: CatalogSeed;
  let vendor: SeedVendor;

  beforeAll(async () => {
    // 200 purchases at once share the test app's 3 pooled connections; on a loaded machine one may wait past the
    // default 5 s for a slot and rightly answer 503. These tests are about money, not the pool's bound.
    app = await startTestApp({ env: { DATABASE_CONNECT_TIMEOUT_MS: '60000' } });
    seed = await CatalogSeed.for(app);
    vendor = await seed.vendor(`shop-${randomUUID().slice(0, 8)}`, { displayName: 'The Shop' });
  });
  afterAll(() => app.close());

  const listing = (priceCents: number, extra: Record<string, unknown> = {}) =>
    seed.listing({ vendor, slug: `pkg-${randomUUID().slice(0, 8)}`, title: 'A package', priceCents, ...extra });
  const buy = (caller: Caller, body: Record<string, unknown>, headers?: Record<string, string>) =>
    caller.call('POST', '/v1/purchases', body, headers);
  const walletOf = async (caller: Caller) => (await json(await caller.call('GET', '/v1/wallet'))).balanceCents;

  it('grants a free listing at once: purchased, amount 0, a free order and the entitlement', async () => {
    const buyer = await newCaller(app);
    const { listingId, releaseId } = await listing(0);
    const answer = await buy(buyer, { listingId });
    expect(answer.status).toBe(200);
    const body = await json(answer);
    expect(body).toEqual({ status: 'purchased', entitlementId: expect.any(String), orderId: expect.any(String), amountCents: 0 });
    const { orders } = await json(await buyer.call('GET', '/v1/orders'));
    expect(orders).toEqual([
      expect.objectContaining({
        id: body.orderId,
        listingId,
        releaseId,
        amountCents: 0,
        status: 'paid',
        fundingSource: 'free',
        vendorSlug: vendor.slug,
        vendorName: 'The Shop',
        listingTitle: 'A package',
        version: '1.0.0',
      }),
    ]);
    const owned = await buyer.call('GET', `/v1/entitlements/${listingId}`);
    expect(owned.status).toBe(200);
    expect(await json(owned)).toEqual({
      owned: true,
      entitlement: {
        id: body.entitlementId,
        listingId,
        releaseId,
        vendorSlug: vendor.slug,
        listingSlug: expect.any(String),
        listingTitle: 'A package',
        version: '1.0.0',
        grantedAt: expect.any(String),
      },
    });
    expect((await json(await buyer.call('GET', '/v1/entitlements'))).entitlements).toHaveLength(1);
  });

  it('answers already_owned to a second purchase, charging nothing', async () => {
    const buyer = await newCaller(app);
    const { listingId } = await listing(300);
    await fundWallet(app, buyer, 1000);
    const first = await json(await buy(buyer, { listingId, useWallet: true }));
    const second = await buy(buyer, { listingId, useWallet: true });
    expect(second.status).toBe(200);
    expect(await json(second)).toEqual({ status: 'already_owned', entitlementId: first.entitlementId });
    expect(await walletOf(buyer)).toBe(700);
  });

  it('pays from the wallet: debit, order and entitlement together, answering the balance left', async () => {
    const buyer = await newCaller(app);
    const { listingId } = await listing(450);
    await fundWallet(app, buyer, 1000);
    const body = await json(await buy(buyer, { listingId, useWallet: true }));
    expect(body).toEqual({
      status: 'purchased',
      entitlementId: expect.any(String),
      orderId: expect.any(String),
      amountCents: 450,
      walletBalanceCents: 550,
    });
    expect(await walletOf(buyer)).toBe(550);
    const { transactions } = await json(await buyer.call('GET', '/v1/wallet/transactions'));
    expect(transactions[0]).toMatchObject({ type: 'purchase', amountCents: -450, balanceAfterCents: 550 });
    const order = (await app.server.app.get(EventStore).readStream(`order-${body.orderId}`))[0];
    expect(order.data).toMatchObject({ amountCents: 450, platformFeeCents: 45, vendorNetCents: 405, fundingSource: 'wallet' });
  });

  it('refuses a wallet purchase it cannot pay with 402 insufficient_balance, moving nothing', async () => {
    const buyer = await newCaller(app);
    const { listingId } = await listing(2000);
    await fundWallet(app, buyer, 500);
    const answer = await buy(buyer, { listingId, useWallet: true });
    expect(answer.status).toBe(402);
    expect(await json(answer)).toMatchObject({
      status: 'insufficient_balance',
      balanceCents: 500,
      requiredCents: 2000,
      message: expect.any(String),
    });
    expect(await walletOf(buyer)).toBe(500);
    expect((await json(await buyer.call('GET', '/v1/orders'))).orders).toEqual([]);
    expect((await buyer.call('GET', `/v1/entitlements/${listingId}`)).status).toBe(404);
  });

  it('refuses a price above maxPriceCents with 409 naming both amounts', async () => {
    const buyer = await newCaller(app);
    const { listingId } = await listing(900);
    const answer = await buy(buyer, { listingId, useWallet: true, maxPriceCents: 800 });
    expect(answer.status).toBe(409);
    expect((await json(answer)).message).toMatch(/900.*800/);
  });

  it('asks for approval (402) when a card purchase has no saved card', async () => {
    const buyer = await newCaller(app);
    const { listingId } = await listing(900);
    const answer = await buy(buyer, { listingId });
    expect(answer.status).toBe(402);
    const body = await json(answer);
    expect(body).toMatchObject({ status: 'approval_required', reason: expect.stringMatching(/payment method/) });
    expect(body.approvalUrl.startsWith(app.server.config.webUrl)).toBe(true);
  });

  it('finds unknown, draft and foreign-release purchases not found, and checks its input', async () => {
    const buyer = await newCaller(app);
    const draft = await listing(100, { publish: false });
    const other = await listing(100);
    const { listingId } = await listing(100);
    expect((await buy(buyer, { listingId: randomUUID() })).status).toBe(404);
    expect((await buy(buyer, { listingId: draft.listingId })).status).toBe(404);
    expect((await buy(buyer, { listingId, releaseId: other.releaseId })).status).toBe(404);
    expect((await buy(buyer, { listingId, orgSlug: 'acme' })).status).toBe(404);
    for (const body of [
      {},
      { listingId: 'nope' },
      { listingId, maxPriceCents: -1 },
      { listingId, maxPriceCents: 1.5 },
      { listingId, channel: 'fax' },
    ])
      expect((await buy(buyer, body)).status).toBe(400);
    const reader = await newCaller(app, ['read']);
    expect((await buy(reader, { listingId })).status).toBe(403);
    expect(await json(await reader.call('GET', `/v1/entitlements/${listingId}`))).toMatchObject({ owned: false });
  });

  it('grants once and charges once when 20 purchases of one listing race', async () => {
    const buyer = await newCaller(app);
    const { listingId } = await listing(100);
    await fundWallet(app, buyer, 5000);
    const answers = await Promise.all(Array.from({ length: 20 }, () => buy(buyer, { listingId, useWallet: true })));
    const bodies = await Promise.all(answers.map((a) => json(a)));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect(bodies.filter((b) => b.status === 'purchased')).toHaveLength(1);
    expect(bodies.filter((b) => b.status === 'already_owned')).toHaveLength(19);
    expect(await walletOf(buyer)).toBe(4900);
    expect((await json(await buyer.call('GET', '/v1/orders'))).orders).toHaveLength(1);
  });

  it('never overdraws under 200 concurrent wallet purchases, and the orders sum to the debits', async () => {
    const buyer = await newCaller(app);
    const listings = await Promise.all(Array.from({ length: 200 }, () => listing(100)));
    await fundWallet(app, buyer, 5050); // affords 50 of them
    const answers = await Promise.all(listings.map(({ listingId }) => buy(buyer, { listingId, useWallet: true })));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(50);
    expect(statuses.filter((s) => s === 402)).toHaveLength(150);
    expect(await walletOf(buyer)).toBe(50);
    const { orders } = await json(await buyer.call('GET', '/v1/orders'));
    const { transactions } = await json(await buyer.call('GET', '/v1/wallet/transactions?limit=100'));
    const debits = transactions.filter((t: { type: string }) => t.type === 'purchase');
    expect(orders.reduce((sum: number, o: { amountCents: number }) => sum + o.amountCents, 0)).toBe(5000);
    expect(debits.reduce((sum: number, t: { amountCents: number }) => sum - t.amountCents, 0)).toBe(5000);
  });

  it('replays a purchase retried with its Idempotency-Key, and a 402 is not recorded: after a top-up the key buys once', async () => {
    const buyer = await newCaller(app);
    const { listingId } = await listing(800);
    const key = randomUUID();
    const refused = await buy(buyer, { listingId, useWallet: true }, { 'idempotency-key': key });
    expect(refused.status).toBe(402);
    await fundWallet(app, buyer, 1000);
    const bought = await buy(buyer, { listingId, useWallet: true }, { 'idempotency-key': key });
    expect(bought.status).toBe(200);
    const retry = await buy(buyer, { listingId, useWallet: true }, { 'idempotency-key': key });
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await retry.text()).toBe(await bought.text());
    expect(await walletOf(buyer)).toBe(200);
  });

  it('runs ten concurrent purchases with one key once: one order, one debit', async () => {
    const buyer = await newCaller(app);
    const listings = await Promise.all(Array.from({ length: 1 }, () => listing(100)));
    await fundWallet(app, buyer, 1000);
    const key = randomUUID();
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        buy(buyer, { listingId: listings[0].listingId, useWallet: true }, { 'idempotency-key': key }),
      ),
    );
    expect(answers.every((a) => a.status === 200 || a.status === 409)).toBe(true);
    expect(await walletOf(buyer)).toBe(900);
    expect((await json(await buyer.call('GET', '/v1/orders'))).orders).toHaveLength(1);
  });

  it('charges the saved card: the order is pending until the processor confirms, then paid and the listing granted', async () => {
    const buyer = await newCaller(app);
    await saveSandboxCard(app, buyer);
    const { listingId } = await listing(900);
    const answer = await buy(buyer, { listingId });
    expect(answer.status).toBe(200);
    const body = await json(answer);
    expect(body).toEqual({
      status: 'purchased',
      entitlementId: expect.any(String),
      orderId: expect.any(String),
      amountCents: 900,
    });
    const [intent] = await app.server.app
      .get(DataSource)
      .query('SELECT id FROM sandbox_payment_intents WHERE idempotency_key = $1', [body.orderId]);
    const byIntent = await json(await buyer.call('GET', `/v1/orders?paymentIntentId=${intent.id}`));
    expect(byIntent.orders).toEqual([expect.objectContaining({ id: body.orderId, status: 'pending', fundingSource: 'card' })]);
    expect((await buyer.call('GET', `/v1/entitlements/${listingId}`)).status).toBe(404);

    await settleSandboxIntent(app, intent.id);
    await eventually(async () => (await buyer.call('GET', `/v1/entitlements/${listingId}`)).status === 200, {
      description: 'the card purchase to grant the listing',
    });
    expect((await json(await buyer.call('GET', `/v1/orders?paymentIntentId=${intent.id}`))).orders[0].status).toBe('paid');
    expect(await json(await buy(buyer, { listingId }))).toEqual({ status: 'already_owned', entitlementId: body.entitlementId });
  });

  it('charges a card once when 20 card purchases of one listing race', async () => {
    const buyer = await newCaller(app);
    await saveSandboxCard(app, buyer);
    const { listingId } = await listing(300);
    const answers = await Promise.all(Array.from({ length: 20 }, () => buy(buyer, { listingId })));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    const orderIds = new Set((await Promise.all(answers.map((a) => json(a)))).map((b) => b.orderId));
    expect(orderIds.size).toBe(1);
    const intents = await app.server.app
      .get(DataSource)
      .query(`SELECT id FROM sandbox_payment_intents WHERE metadata->>'listingId' = $1`, [listingId]);
    expect(intents).toHaveLength(1);
  });
});
