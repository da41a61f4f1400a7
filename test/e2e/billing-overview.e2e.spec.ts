import { randomUUID } from 'node:crypto';
import { EventStore } from '../../src/event-store/event-store';
import { trackWrites } from '../../src/event-store/write-tracker';
import { orderStreamId, PurchaseMade } from '../../src/modules/purchasing/domain/purchase';
import { PurchasingEvents } from '../../src/modules/purchasing/events';
import { ManualClock } from '../../src/platform/clock/clock';
import { ProjectionWaiter } from '../../src/projections/read-your-writes';
import { Caller, newCaller } from '../support/accounts';
import { startTestApp, TestApp } from '../support/app';
import { CatalogSeed, SeedVendor } from '../support/catalog-seed';
import { json } from '../support/http';
import { fundWallet } from '../support/wallet';

/** Wednesday 18 March 2026, noon UTC: this week began on Monday the 16th, this month on the 1st. */
const NOW = '2026-03-18T12:00:00.000Z';

describe('GET /v1/billing/overview', () => {
  const clock = new ManualClock(NOW);
  let app: TestApp;
  let seed: CatalogSeed;
  let vendor: SeedVendor;

  beforeAll(async () => {
    app = await startTestApp({ clock });
    seed = await CatalogSeed.for(app);
    vendor = await seed.vendor(`tools-${randomUUID().slice(0, 8)}`, { displayName: 'Tools Inc' });
  });
  afterAll(() => app.close());

  const listing = (priceCents: number, title = 'A package') =>
    seed.listing({ vendor, slug: `pkg-${randomUUID().slice(0, 8)}`, title, priceCents });

  /** A purchase made at `at` (the clock is set back to now afterwards). */
  async function buyAt(buyer: Caller, at: string, priceCents: number, title?: string): Promise<string> {
    const { listingId } = await listing(priceCents, title);
    clock.set(at);
    try {
      const answer = await buyer.call('POST', '/v1/purchases', { listingId, useWallet: priceCents > 0 });
      const body = await json(answer);
      expect({ status: answer.status, body: body.status }).toEqual({ status: 200, body: 'purchased' });
      return body.orderId;
    } finally {
      clock.set(NOW);
    }
  }

  /** An order that is not paid, as a card checkout awaiting the processor would record it. */
  async function unpaidOrder(buyer: Caller, at: string, status: 'pending' | 'failed', amountCents: number): Promise<string> {
    const { listingId, releaseId } = await listing(amountCents, `Unpaid ${status}`);
    const orderId = randomUUID();
    const made: PurchaseMade = {
      type: PurchasingEvents.PurchaseMade,
      data: {
        orderId,
        buyer: { kind: 'user', id: buyer.userId },
        userId: buyer.userId,
        listingId,
        releaseId,
        version: '1.0.0',
        vendorId: vendor.id,
        vendorSlug: vendor.slug,
        vendorName: 'Tools Inc',
        listingSlug: 'unpaid',
        listingTitle: `Unpaid ${status}`,
        listingType: 'skill',
        amountCents,
        platformFeeCents: 0,
        vendorNetCents: amountCents,
        fundingSource: 'card',
        status,
        paymentIntentId: `pi_${randomUUID().replace(/-/g, '')}`,
        channel: 'web',
        policyIds: [],
        madeAt: at,
      },
    };
    const { lastPosition, eventTypes } = await trackWrites(() =>
      app.server.app.get(EventStore).append(orderStreamId(orderId), [made], 'no_stream'),
    );
    if (!(await app.server.app.get(ProjectionWaiter).waitFor(lastPosition!, eventTypes, 20_000)))
      throw new Error('the orders projection did not catch up');
    return orderId;
  }

  const overview = async (caller: Caller) => {
    const answer = await caller.call('GET', '/v1/billing/overview');
    expect(answer.status).toBe(200);
    return json(answer);
  };

  it('is all zeros and no orders for a caller who never bought anything', async () => {
    expect(await overview(await newCaller(app))).toEqual({
      allTime: { totalCents: 0, totalOrders: 0 },
      thisMonth: { totalCents: 0 },
      thisWeek: { totalCents: 0 },
      recentOrders: [],
    });
  });

  it('totals paid orders all time, this UTC month and this week from Monday 00:00 UTC; lists the 10 newest of any status', async () => {
    const buyer = await newCaller(app);
    await fundWallet(app, buyer, 5000);
    const february = await buyAt(buyer, '2026-02-10T09:00:00.000Z', 500, 'In February'); // all time only
    const lastWeek = await buyAt(buyer, '2026-03-09T09:00:00.000Z', 300, 'Last week'); // this month
    const sundayNight = await buyAt(buyer, '2026-03-15T23:59:59.000Z', 100, 'Sunday night'); // this month, the week before
    const mondayMidnight = await buyAt(buyer, '2026-03-16T00:00:00.000Z', 0, 'Free on Monday'); // this week, 0 cents
    const tuesday = await buyAt(buyer, '2026-03-17T10:00:00.000Z', 200, 'On Tuesday'); // this week
    const pending = await unpaidOrder(buyer, '2026-03-17T11:00:00.000Z', 'pending', 700);
    const failed = await unpaidOrder(buyer, '2026-03-17T12:00:00.000Z', 'failed', 900);
    // Six free orders this morning push the oldest ones out of the ten recent.
    const mornings: string[] = [];
    for (let i = 0; i < 6; i++) mornings.push(await buyAt(buyer, `2026-03-18T0${i}:00:00.000Z`, 0, `Morning ${i}`));
    // Another buyer's orders count for nobody else.
    const other = await newCaller(app);
    await fundWallet(app, other, 1000);
    await buyAt(other, '2026-03-17T10:00:00.000Z', 400);

    const body = await overview(buyer);
    expect(body.allTime).toEqual({ totalCents: 1100, totalOrders: 11 });
    expect(body.thisMonth).toEqual({ totalCents: 600 });
    expect(body.thisWeek).toEqual({ totalCents: 200 });
    expect(body.recentOrders.map((o: { id: string }) => o.id)).toEqual([
      ...mornings.reverse(),
      failed,
      pending,
      tuesday,
      mondayMidnight,
    ]);
    expect(body.recentOrders).not.toContainEqual(expect.objectContaining({ id: sundayNight }));
    expect([february, lastWeek]).not.toContain(body.recentOrders[9].id);
    expect(body.recentOrders[7]).toEqual({
      id: pending,
      amountCents: 700,
      status: 'pending',
      createdAt: '2026-03-17T11:00:00.000Z',
      listingTitle: 'Unpaid pending',
      listingSlug: 'unpaid',
      vendorSlug: vendor.slug,
    });
    expect(body.recentOrders[8]).toEqual({
      id: tuesday,
      amountCents: 200,
      status: 'paid',
      createdAt: '2026-03-17T10:00:00.000Z',
      listingTitle: 'On Tuesday',
      listingSlug: expect.stringMatching(/^pkg-/),
      vendorSlug: vendor.slug,
    });

    // Next Monday the week starts over; in April, the month too.
    clock.set('2026-03-23T00:00:00.000Z');
    expect(await overview(buyer)).toMatchObject({ thisMonth: { totalCents: 600 }, thisWeek: { totalCents: 0 } });
    clock.set('2026-04-01T00:00:00.000Z');
    expect(await overview(buyer)).toMatchObject({
      allTime: { totalCents: 1100, totalOrders: 11 },
      thisMonth: { totalCents: 0 },
      thisWeek: { totalCents: 0 },
    });
    clock.set(NOW);
  });

  it('answers any valid token, whatever its scopes, and 401 without one', async () => {
    const reader = await newCaller(app, ['read']);
    expect((await reader.call('GET', '/v1/billing/overview')).status).toBe(200);
    const seller = await newCaller(app, ['sell']);
    expect((await seller.call('GET', '/v1/billing/overview')).status).toBe(200);
    expect((await fetch(`${app.url}/v1/billing/overview`)).status).toBe(401);
  });
});
