import { randomUUID } from 'node:crypto';
import { CommandBus } from '@nestjs/cqrs';
import { EventStore } from '../../src/event-store/event-store';
import { ChargeCardPurchaseCommand } from '../../src/modules/purchasing/commands/charge-card-purchase/charge-card-purchase.command';
import { derivedId } from '../../src/platform/ids';
import { Caller, eventually, newCaller } from '../support/accounts';
import { startTestApp, TestApp } from '../support/app';
import { CatalogSeed, SeedVendor } from '../support/catalog-seed';
import { deliverWebhook, FakeStripe } from '../support/fake-stripe';
import { json } from '../support/http';

const WEBHOOK_SECRET = 'whsec_card_purchases';

describe('card purchases through the Stripe SDK against a loopback Stripe', () => {
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
    vendor = await seed.vendor(`cards-${randomUUID().slice(0, 8)}`);
  });
  afterAll(async () => {
    await app.close();
    await stripe.close();
  });

  const listing = (priceCents: number) => seed.listing({ vendor, slug: `pkg-${randomUUID().slice(0, 8)}`, priceCents });
  const deliver = (event: unknown) => deliverWebhook(app.url, event, WEBHOOK_SECRET);
  const entitled = async (buyer: Caller, listingId: string) =>
    (await buyer.call('GET', `/v1/entitlements/${listingId}`)).status === 200;
  const chargesFor = (orderId: string) =>
    stripe.events.filter(
      (e) =>
        e.type.startsWith('payment_intent.') &&
        (e.data.object as { metadata: Record<string, string> }).metadata.orderId === orderId,
    );

  async function buyerWithCard(): Promise<Caller> {
    const buyer = await newCaller(app);
    const { clientSecret } = await json(await buyer.call('POST', '/v1/billing/setup-intent'));
    await deliver(stripe.completeSetupIntent(clientSecret.split('_secret_')[0]));
    await eventually(
      async () => (await json(await buyer.call('GET', '/v1/billing/payment-methods'))).paymentMethods.length === 1,
    );
    return buyer;
  }

  it('grants the listing when the processor reports the charge succeeded', async () => {
    const buyer = await buyerWithCard();
    const { listingId } = await listing(1200);
    const body = await json(await buyer.call('POST', '/v1/purchases', { listingId }));
    expect(body).toMatchObject({ status: 'purchased', amountCents: 1200 });
    const [succeeded] = chargesFor(body.orderId);
    expect(succeeded.type).toBe('payment_intent.succeeded');
    await deliver(succeeded);
    await deliver(succeeded); // redelivered: still one grant
    await eventually(() => entitled(buyer, listingId), { description: 'the listing to be granted' });
    const { orders } = await json(await buyer.call('GET', '/v1/orders'));
    expect(orders).toEqual([
      expect.objectContaining({ id: body.orderId, status: 'paid', fundingSource: 'card', amountCents: 1200 }),
    ]);
  });

  it('answers a declined card with 402 approval_required, granting nothing, and lets the buyer try again', async () => {
    const buyer = await buyerWithCard();
    const { listingId } = await listing(700);
    stripe.declineOffSessionCharges('Your card was declined.');
    try {
      const refused = await buyer.call('POST', '/v1/purchases', { listingId });
      expect(refused.status).toBe(402);
      expect(await json(refused)).toMatchObject({
        status: 'approval_required',
        reason: expect.stringMatching(/declined/),
        approvalUrl: expect.any(String),
      });
    } finally {
      stripe.declineOffSessionCharges(null);
    }
    expect((await json(await buyer.call('GET', '/v1/orders'))).orders).toEqual([expect.objectContaining({ status: 'failed' })]);
    const retried = await json(await buyer.call('POST', '/v1/purchases', { listingId }));
    expect(retried).toMatchObject({ status: 'purchased' });
    await deliver(chargesFor(retried.orderId).find((e) => e.type === 'payment_intent.succeeded'));
    await eventually(() => entitled(buyer, listingId));
  });

  it('fails a pending order on payment_intent.payment_failed and releases the listing for another try', async () => {
    const buyer = await buyerWithCard();
    const { listingId } = await listing(500);
    const body = await json(await buyer.call('POST', '/v1/purchases', { listingId }));
    const intentId = (chargesFor(body.orderId)[0].data.object as { id: string }).id;
    const failed = {
      ...chargesFor(body.orderId)[0],
      id: `evt_${randomUUID().replace(/-/g, '')}`,
      type: 'payment_intent.payment_failed',
    };
    (failed.data.object as Record<string, unknown>) = {
      ...(failed.data.object as object),
      status: 'requires_payment_method',
      last_payment_error: { message: 'Insufficient funds' },
    };
    expect((await deliver(failed)).status).toBe(200);
    await eventually(
      async () => (await json(await buyer.call('GET', `/v1/orders?paymentIntentId=${intentId}`))).orders[0]?.status === 'failed',
    );
    const again = await json(await buyer.call('POST', '/v1/purchases', { listingId }));
    expect(again.orderId).not.toBe(body.orderId);
  });

  it('charges an order whose request died after placing it: the saga makes the charge', async () => {
    const buyer = await buyerWithCard();
    const { listingId, releaseId } = await listing(650);
    const orderId = randomUUID();
    const store = app.server.app.get(EventStore);
    // What the request had appended when it died: the pending order and the buyer's hold.
    await store.appendAtomically([
      {
        streamId: `order-${orderId}`,
        expected: 'no_stream',
        events: [
          {
            eventId: derivedId('PurchaseMade', orderId),
            type: 'PurchaseMade',
            data: {
              orderId,
              buyer: { kind: 'user', id: buyer.userId },
              userId: buyer.userId,
              listingId,
              releaseId,
              version: '1.0.0',
              vendorId: vendor.id,
              vendorSlug: vendor.slug,
              vendorName: vendor.slug,
              listingSlug: 'x',
              listingTitle: 'X',
              listingType: 'skill',
              amountCents: 650,
              platformFeeCents: 65,
              vendorNetCents: 585,
              fundingSource: 'card',
              status: 'pending',
              paymentIntentId: null,
              channel: 'api',
              policyIds: [],
              madeAt: new Date().toISOString(),
            },
          },
        ],
      },
      {
        streamId: `entitlement-${buyer.userId}-${listingId}`,
        expected: 'no_stream',
        events: [
          { type: 'EntitlementPending', data: { userId: buyer.userId, listingId, orderId, heldAt: new Date().toISOString() } },
        ],
      },
    ]);
    const [charge] = await eventually(() => chargesFor(orderId).length > 0 && chargesFor(orderId), {
      description: 'the saga to charge',
    });
    await deliver(charge);
    await eventually(() => entitled(buyer, listingId), { description: 'the listing to be granted' });
    expect(chargesFor(orderId)).toHaveLength(1);

    // The request was only slow, not dead: charging after the saga, it still records its answer (its
    // Idempotency-Key's), with no second charge and no error.
    const answerStream = `idempotency-${randomUUID()}`;
    const answered = {
      type: 'IdempotentRequestAnswered',
      data: { fingerprint: 'f', status: 200, body: '{}', answeredAt: new Date().toISOString() },
    };
    const outcome = await app.server.app.get(CommandBus).execute(
      new ChargeCardPurchaseCommand(orderId, {
        charged: async () => [{ streamId: answerStream, events: [answered], expected: 'no_stream' }],
        declined: async () => [],
      }),
    );
    expect(outcome).toEqual({ charged: true });
    expect(await store.readStream(answerStream)).toHaveLength(1);
    expect(chargesFor(orderId)).toHaveLength(1);
  });
});
