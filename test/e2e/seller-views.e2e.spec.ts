import { randomUUID } from 'node:crypto';
import { EventStore } from '../../src/event-store/event-store';
import { trackWrites } from '../../src/event-store/write-tracker';
import { connectedAccountStreamId } from '../../src/modules/billing/domain/connected-account.decider';
import { orderStreamId, PurchaseMade } from '../../src/modules/purchasing/domain/purchase';
import { PurchasingEvents } from '../../src/modules/purchasing/events';
import { ManualClock } from '../../src/platform/clock/clock';
import { ProjectionWaiter } from '../../src/projections/read-your-writes';
import { Caller, eventually, newCaller } from '../support/accounts';
import { startTestApp, TestApp } from '../support/app';
import { CatalogSeed, SeedVendor } from '../support/catalog-seed';
import { json } from '../support/http';
import { fundWallet, settleSandboxIntent } from '../support/wallet';

/** Friday 20 March 2026: this month began on the 1st. */
const NOW = '2026-03-20T12:00:00.000Z';

/**
 * The vendor's listings (newest first) and their paid orders (platform fee 10 %):
 *   delta   500, draft, never sold
 *   gamma   free         b2 this month                         -> 1 order, 0
 *   beta    250          b1 this month                         -> 1 order, 250 (net 225)
 *   alpha   1000         b1 in February, b2 this month         -> 2 orders, 2000 (net 1800); a pending order of b3 counts nowhere
 *   epsilon 300          never sold
 * Another vendor's sale counts for it alone.
 */
describe('seller views: GET /v1/billing/seller-overview and GET /v1/vendor/analytics', () => {
  const clock = new ManualClock(NOW);
  let app: TestApp;
  let seed: CatalogSeed;
  let seller: Caller;
  let vendor: SeedVendor;
  const ids: Record<string, string> = {};

  const buyAt = async (buyer: Caller, listingId: string, at: string, useWallet = true) => {
    clock.set(at);
    try {
      const answer = await buyer.call('POST', '/v1/purchases', { listingId, useWallet });
      expect({ status: answer.status, body: (await json(answer)).status }).toEqual({ status: 200, body: 'purchased' });
    } finally {
      clock.set(NOW);
    }
  };

  beforeAll(async () => {
    app = await startTestApp({ clock });
    seed = await CatalogSeed.for(app);
    seller = await newCaller(app);
    vendor = await seed.vendor(`seller-${randomUUID().slice(0, 8)}`, { id: seller.userId, displayName: 'Seller & Sons' });
    const listing = async (name: string, priceCents: number, at: string, publish = true) => {
      ids[name] = (
        await seed.listing({
          vendor,
          slug: `${name}-${randomUUID().slice(0, 6)}`,
          title: `The ${name}`,
          priceCents,
          at: new Date(at),
          publish,
        })
      ).listingId;
    };
    await listing('epsilon', 300, '2026-01-01T00:00:00Z');
    await listing('alpha', 1000, '2026-01-02T00:00:00Z');
    await listing('beta', 250, '2026-01-03T00:00:00Z');
    await listing('gamma', 0, '2026-01-04T00:00:00Z');
    await listing('delta', 500, '2026-01-05T00:00:00Z', false);
    await seed.installs(ids.alpha, 3);
    await seed.installs(ids.gamma, 2);

    const [b1, b2, b3] = [await newCaller(app), await newCaller(app), await newCaller(app)];
    await fundWallet(app, b1, 2000);
    await fundWallet(app, b2, 2000);
    await fundWallet(app, b3, 2000);
    await buyAt(b1, ids.alpha, '2026-02-27T10:00:00.000Z');
    await buyAt(b1, ids.beta, '2026-03-01T00:00:00.000Z');
    await buyAt(b2, ids.alpha, '2026-03-19T10:00:00.000Z');
    await buyAt(b2, ids.gamma, '2026-03-19T11:00:00.000Z', false);
    await pendingOrder(b3, ids.alpha, 1000);

    const other = await seed.vendor(`other-${randomUUID().slice(0, 8)}`);
    const theirs = await seed.listing({ vendor: other, slug: 'theirs', priceCents: 700 });
    await buyAt(b3, theirs.listingId, '2026-03-19T12:00:00.000Z');
  });
  afterAll(() => app.close());

  /** An order awaiting its card payment, as a web checkout would record it: no sale yet. */
  async function pendingOrder(buyer: Caller, listingId: string, amountCents: number): Promise<void> {
    const orderId = randomUUID();
    const made: PurchaseMade = {
      type: PurchasingEvents.PurchaseMade,
      data: {
        orderId,
        buyer: { kind: 'user', id: buyer.userId },
        userId: buyer.userId,
        listingId,
        releaseId: randomUUID(),
        version: '1.0.0',
        vendorId: vendor.id,
        vendorSlug: vendor.slug,
        vendorName: 'Seller & Sons',
        listingSlug: 'alpha',
        listingTitle: 'The alpha',
        listingType: 'skill',
        amountCents,
        platformFeeCents: amountCents / 10,
        vendorNetCents: (amountCents * 9) / 10,
        fundingSource: 'card',
        status: 'pending',
        paymentIntentId: null,
        channel: 'web',
        policyIds: [],
        madeAt: '2026-03-19T09:00:00.000Z',
      },
    };
    const { lastPosition, eventTypes } = await trackWrites(() =>
      app.server.app.get(EventStore).append(orderStreamId(orderId), [made], 'no_stream'),
    );
    if (!(await app.server.app.get(ProjectionWaiter).waitFor(lastPosition!, eventTypes, 20_000)))
      throw new Error('the orders projection did not catch up');
  }

  const get = async (caller: Caller, path: string) => {
    const answer = await caller.call('GET', path);
    return { status: answer.status, body: await json(answer) };
  };

  it('overviews the vendor’s paid sales, gross and net of the platform fee, all time and this UTC month', async () => {
    const { status, body } = await get(seller, '/v1/billing/seller-overview');
    expect(status).toBe(200);
    expect(body).toEqual({
      isVendor: true,
      vendor: { slug: vendor.slug, displayName: 'Seller & Sons' },
      allTime: { grossCents: 2250, netCents: 2025, totalSales: 4 },
      thisMonth: { grossCents: 1250, netCents: 1125 },
    });
    clock.set('2026-04-01T00:00:00.000Z');
    expect((await get(seller, '/v1/billing/seller-overview')).body).toMatchObject({
      allTime: { grossCents: 2250, netCents: 2025, totalSales: 4 },
      thisMonth: { grossCents: 0, netCents: 0 },
    });
    clock.set(NOW);
  });

  it('answers only {isVendor:false} to a caller without a vendor profile', async () => {
    const buyerOnly = await newCaller(app);
    expect(await get(buyerOnly, '/v1/billing/seller-overview')).toEqual({ status: 200, body: { isVendor: false } });
  });

  it('analyses every listing, unsold and draft ones included, newest first, with gross revenue and installs', async () => {
    const { status, body } = await get(seller, '/v1/vendor/analytics');
    expect(status).toBe(200);
    const row = (name: string, priceCents: number, installCount: number, orderCount: number, revenueCents: number) => ({
      id: ids[name],
      slug: expect.stringMatching(new RegExp(`^${name}-`)),
      title: `The ${name}`,
      priceCents,
      installCount,
      orderCount,
      revenueCents,
    });
    expect(body).toEqual({
      vendor: { slug: vendor.slug, displayName: 'Seller & Sons', stripeOnboardingComplete: false },
      revenue: { totalCents: 2250, totalOrders: 4 },
      listings: [
        row('delta', 500, 0, 0, 0),
        row('gamma', 0, 2, 1, 0),
        row('beta', 250, 0, 1, 250),
        row('alpha', 1000, 3, 2, 2000),
        row('epsilon', 300, 0, 0, 0),
      ],
    });
  });

  it('shows stripeOnboardingComplete once the processor reports onboarding complete (sandbox, settled by hand)', async () => {
    const onboard = await seller.call('POST', '/v1/vendor/onboard');
    expect(onboard.status).toBe(200);
    const [created] = await app.server.app.get(EventStore).readStream(connectedAccountStreamId(seller.userId));
    await settleSandboxIntent(app, created.data.accountId as string);
    await eventually(async () => (await get(seller, '/v1/vendor/analytics')).body.vendor.stripeOnboardingComplete === true, {
      description: 'onboarding to show as complete',
    });
  });

  it('answers 403 without a vendor profile, and 403 on every seller route to a token without the sell scope', async () => {
    const buyerOnly = await newCaller(app);
    const refused = await get(buyerOnly, '/v1/vendor/analytics');
    expect(refused.status).toBe(403);
    expect(refused.body.message).toMatch(/vendor profile/);

    const readOnly = await newCaller(app, ['read']);
    await seed.vendor(`ro-${randomUUID().slice(0, 8)}`, { id: readOnly.userId });
    for (const [method, path] of [
      ['GET', '/v1/billing/seller-overview'],
      ['GET', '/v1/vendor/analytics'],
      ['POST', '/v1/vendor/onboard'],
      ['POST', '/v1/billing/seller-dashboard-link'],
    ]) {
      const answer = await readOnly.call(method, path);
      expect({ path, status: answer.status }).toEqual({ path, status: 403 });
      expect((await json(answer)).message).toEqual(expect.any(String));
    }
    // The buyer's own overview needs no particular scope.
    expect((await readOnly.call('GET', '/v1/billing/overview')).status).toBe(200);
  });
});
