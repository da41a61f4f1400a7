import { randomUUID } from 'node:crypto';
import { EventStore } from '../../src/event-store/event-store';
import { connectedAccountStreamId } from '../../src/modules/billing/domain/connected-account.decider';
import { BillingEvents } from '../../src/modules/billing/events';
import { Caller, eventually, newCaller } from '../support/accounts';
import { startTestApp, TestApp } from '../support/app';
import { CatalogSeed } from '../support/catalog-seed';
import { deliverWebhook, FakeStripe } from '../support/fake-stripe';
import { json } from '../support/http';

const WEBHOOK_SECRET = 'whsec_seller_onboarding_e2e';
const WEB_URL = 'https://web.example.test';

/** A caller with every scope and a vendor profile of their own (the vendor's id is the user's). */
async function newVendor(app: TestApp, seed: CatalogSeed): Promise<Caller> {
  const caller = await newCaller(app);
  await seed.vendor(`seller-${randomUUID().slice(0, 8)}`, { id: caller.userId, displayName: 'A Seller' });
  return caller;
}

const onboard = async (caller: Caller) => {
  const answer = await caller.call('POST', '/v1/vendor/onboard');
  return { status: answer.status, body: await json(answer) };
};
const dashboardLink = async (caller: Caller) => {
  const answer = await caller.call('POST', '/v1/billing/seller-dashboard-link');
  return { status: answer.status, body: await json(answer) };
};

describe('vendor onboarding through Stripe Connect (the real SDK against a loopback Stripe)', () => {
  let stripe: FakeStripe;
  let app: TestApp;
  let seed: CatalogSeed;

  beforeAll(async () => {
    stripe = await FakeStripe.start();
    app = await startTestApp({
      env: {
        STRIPE_SECRET_KEY: stripe.secretKey,
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        STRIPE_API_URL: stripe.url,
        WEB_URL,
      },
    });
    seed = await CatalogSeed.for(app);
  });
  afterAll(async () => {
    await app?.close();
    await stripe?.close();
  });

  const deliver = (event: unknown) => deliverWebhook(app.url, event, WEBHOOK_SECRET);
  const accountsCreatedFor = (vendorId: string) =>
    stripe.requests.filter(
      (r) =>
        r.method === 'POST' &&
        r.path === '/v1/accounts' &&
        !r.replayed &&
        r.status === 200 &&
        (r.params.metadata as Record<string, unknown> | undefined)?.vendorId === vendorId,
    );
  const accountOf = async (vendorId: string): Promise<string> => {
    const [created] = (await app.server.app.get(EventStore).readStream(connectedAccountStreamId(vendorId))).filter(
      (e) => e.type === BillingEvents.ConnectedAccountCreated,
    );
    return created.data.accountId as string;
  };

  it('creates the connected account once under concurrent calls, and answers an onboarding link back to the web app', async () => {
    const vendor = await newVendor(app, seed);
    const answers = await Promise.all([onboard(vendor), onboard(vendor), onboard(vendor)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    for (const { body } of answers)
      expect(body).toEqual({ url: expect.stringMatching(/^https:\/\/connect\.stripe\.com\/setup\/e\/acct_/) });

    expect(accountsCreatedFor(vendor.userId)).toHaveLength(1);
    const accountId = await accountOf(vendor.userId);
    expect(stripe.account(accountId)).toMatchObject({ type: 'express', metadata: { vendorId: vendor.userId } });
    const stream = await app.server.app.get(EventStore).readStream(connectedAccountStreamId(vendor.userId));
    expect(stream.map((e) => e.type)).toEqual([BillingEvents.ConnectedAccountCreated]);
    const links = stripe.accountLinksMade().filter((link) => link.account === accountId);
    expect(links).toHaveLength(3);
    for (const link of links) {
      expect(link).toMatchObject({
        type: 'account_onboarding',
        refresh_url: `${WEB_URL}/vendor/onboarding/refresh`,
        return_url: `${WEB_URL}/vendor/onboarding/return`,
      });
    }
    // A later call links to the same account.
    expect((await onboard(vendor)).status).toBe(200);
    expect(accountsCreatedFor(vendor.userId)).toHaveLength(1);
    expect(stripe.accountLinksMade().filter((link) => link.account === accountId)).toHaveLength(4);
  });

  it('refuses the dashboard link until account.updated reports onboarding complete (stripeOnboardingComplete), then links to the Express dashboard', async () => {
    const vendor = await newVendor(app, seed);
    const none = await dashboardLink(vendor);
    expect(none.status).toBe(422);
    expect(none.body.message).toMatch(/POST \/v1\/vendor\/onboard/);

    expect((await onboard(vendor)).status).toBe(200);
    const accountId = await accountOf(vendor.userId);
    const pending = await dashboardLink(vendor);
    expect(pending.status).toBe(422);
    expect(pending.body.message).toMatch(/not complete/);

    const analytics = async () => json(await vendor.call('GET', '/v1/vendor/analytics'));
    expect((await analytics()).vendor.stripeOnboardingComplete).toBe(false);

    const completed = stripe.completeOnboarding(accountId);
    // Redelivered, it is recorded once.
    expect((await deliver(completed)).status).toBe(200);
    expect((await deliver(completed)).status).toBe(200);
    await eventually(async () => (await analytics()).vendor.stripeOnboardingComplete === true, {
      description: 'onboarding to be recorded complete',
    });
    const linked = await dashboardLink(vendor);
    expect(linked.status).toBe(200);
    expect(linked.body).toEqual({ url: expect.stringMatching(/^https:\/\/connect\.stripe\.com\/express\//) });
    const stream = await app.server.app.get(EventStore).readStream(connectedAccountStreamId(vendor.userId));
    expect(stream.map((e) => [e.type, e.data.onboardingComplete])).toEqual([
      [BillingEvents.ConnectedAccountCreated, undefined],
      [BillingEvents.ConnectedAccountUpdated, true],
    ]);
  });

  it('answers 403 naming the missing vendor profile, and 403 to a token without the sell scope', async () => {
    const notAVendor = await newCaller(app);
    for (const answer of [await onboard(notAVendor), await dashboardLink(notAVendor)]) {
      expect(answer.status).toBe(403);
      expect(answer.body.message).toMatch(/vendor profile/);
    }
    expect(accountsCreatedFor(notAVendor.userId)).toHaveLength(0);

    const readOnly = await newCaller(app, ['read']);
    await seed.vendor(`ro-${randomUUID().slice(0, 8)}`, { id: readOnly.userId });
    for (const path of ['/v1/vendor/onboard', '/v1/billing/seller-dashboard-link'])
      expect((await readOnly.call('POST', path)).status).toBe(403);
    expect(accountsCreatedFor(readOnly.userId)).toHaveLength(0);
    expect((await fetch(`${app.url}/v1/vendor/onboard`, { method: 'POST' })).status).toBe(401);
  });
});

describe('vendor onboarding in the sandbox, with no payment configuration', () => {
  let app: TestApp;
  let seed: CatalogSeed;

  beforeAll(async () => {
    app = await startTestApp({ env: { PAY_SANDBOX_AUTO_SETTLE: 'true', WEB_URL } });
    seed = await CatalogSeed.for(app);
  });
  afterAll(() => app?.close());

  it('completes onboarding by itself: a signed account.updated to this server, then the dashboard link works', async () => {
    const vendor = await newVendor(app, seed);
    const { status, body } = await onboard(vendor);
    expect(status).toBe(200);
    expect(body.url).toBe(`${WEB_URL}/vendor/onboarding/return?sandbox=1`);
    const analytics = async () => json(await vendor.call('GET', '/v1/vendor/analytics'));
    await eventually(async () => (await analytics()).vendor.stripeOnboardingComplete === true, {
      description: 'the sandbox to complete onboarding',
    });
    expect(await dashboardLink(vendor)).toEqual({ status: 200, body: { url: `${WEB_URL}/vendor/payouts?sandbox=1` } });
  });
});
