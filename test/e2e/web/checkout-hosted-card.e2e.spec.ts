import { randomUUID } from 'node:crypto';
import { CommandBus } from '@nestjs/cqrs';
import { Browser } from 'playwright-core';
import { IssuedToken, IssueTokenCommand } from '../../../src/modules/auth/commands/issue-token/issue-token.command';
import { SCOPES } from '../../../src/modules/auth/domain/api-token';
import { EnsureUserCommand } from '../../../src/modules/users/commands/ensure-user/ensure-user.command';
import { callerFor, eventually } from '../../support/accounts';
import { startTestApp, TestApp } from '../../support/app';
import { freePort, launchBrowser, screenshot, signInLocally } from '../../support/browser';
import { CatalogSeed } from '../../support/catalog-seed';
import { deliverWebhook, FakeStripe } from '../../support/fake-stripe';
import { json } from '../../support/http';

const WEBHOOK_SECRET = 'whsec_hosted_card';

describe('web: checkout with Stripe configured adds a card on the processor-hosted form', () => {
  let stripe: FakeStripe;
  let app: TestApp;
  let browser: Browser;

  beforeAll(async () => {
    stripe = await FakeStripe.start();
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    // The hosted page's webhooks go to the app, as Stripe's would.
    stripe.sendWebhooksTo(url, WEBHOOK_SECRET);
    app = await startTestApp({
      env: {
        PORT: String(port),
        BASE_URL: url,
        WEB_LOCAL_IDP: 'true',
        STRIPE_SECRET_KEY: stripe.secretKey,
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        STRIPE_API_URL: stripe.url,
      },
    });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await stripe?.close();
  });

  it('402 for want of a card → checkout → Add a card → hosted form → back with the card → paid by card', async () => {
    const email = `hosted-${randomUUID()}@example.com`;
    const commands = app.server.app.get(CommandBus);
    const userId: string = await commands.execute(new EnsureUserCommand(email));
    const issued: IssuedToken = await commands.execute(new IssueTokenCommand(userId, 'cli', [...SCOPES], 'admin'));
    const cli = callerFor(app, userId, issued.token);
    await eventually(async () => (await cli.call('GET', '/v1/users/me')).status === 200);
    const seed = await CatalogSeed.for(app);
    const vendor = await seed.vendor(`hosted-${randomUUID().slice(0, 8)}`);
    const { listingId, releaseId } = await seed.listing({ vendor, slug: 'paid-skill', title: 'Paid skill', priceCents: 1100 });

    const refused = await cli.call('POST', '/v1/purchases', { listingId });
    expect(refused.status).toBe(402);
    const { status, approvalUrl } = await json(refused);
    expect(status).toBe('approval_required');

    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(approvalUrl);
    await signInLocally(page, email);
    await page.waitForURL(/\/checkout\//);
    // The sandbox's test-card field and its note are not offered when the real processor is configured.
    expect(await page.getByLabel('Card number').count()).toBe(0);
    expect(await page.getByRole('note', { name: 'Sandbox test cards' }).count()).toBe(0);
    expect(await page.getByText('4000 0000 0000 0341').count()).toBe(0);
    await page.getByRole('button', { name: 'Add a card' }).click();

    await page.waitForURL((url) => url.href.startsWith(`${stripe.url}/c/pay/cs_test_`));
    const session = stripe.requests.filter((r) => r.path === '/v1/checkout/sessions').at(-1)!;
    expect(session.params).toMatchObject({
      mode: 'setup',
      allowed_payment_method_types: { '0': 'card' },
      success_url: `${app.url}/checkout/${listingId}?releaseId=${releaseId}&card=added`,
      cancel_url: `${app.url}/checkout/${listingId}?releaseId=${releaseId}&card=canceled`,
      metadata: { ownerId: `user-${userId}` },
      setup_intent_data: { metadata: { ownerKind: 'user', ownerId: userId } },
    });
    expect(session.idempotencyKey).toEqual(expect.any(String));
    const { hasStripeCustomer } = await json(await cli.call('GET', '/v1/billing/payment-methods'));
    expect(hasStripeCustomer).toBe(true);

    await page.getByLabel('Card number').fill('4000 0000 0000 0002');
    await page.getByRole('button', { name: 'Save card' }).click();
    await page.getByRole('alert').getByText('Your card was declined.').waitFor();
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByRole('button', { name: 'Save card' }).click();

    await page.waitForURL(
      (url) => url.href.startsWith(`${app.url}/checkout/${listingId}`) && url.searchParams.get('card') === 'added',
    );
    expect(stripe.deliveries).toEqual([
      { type: 'setup_intent.succeeded', status: 200 },
      { type: 'checkout.session.completed', status: 200 },
    ]);
    // The saga saves the card from setup_intent.succeeded; until it has, the page offers a refresh.
    await page.getByText(/Your card is being saved|Saved cards: visa ending 4242/).waitFor();
    await eventually(async () => (await json(await cli.call('GET', '/v1/billing/payment-methods'))).paymentMethods.length > 0, {
      description: 'the webhook to save the card',
    });
    await page.reload();
    await page.getByText(/Saved cards: visa ending 4242/).waitFor();
    await page.getByText('Your card is saved.').waitFor();
    await screenshot(page, 'checkout-hosted-card');

    await page.getByRole('button', { name: 'Complete the purchase' }).click();
    await page.getByText('Purchased: the package is yours.').waitFor();
    const [order] = (await json(await cli.call('GET', '/v1/orders'))).orders;
    expect(order).toMatchObject({ listingId, status: 'pending', fundingSource: 'card', amountCents: 1100 });
    const succeeded = stripe.events.find(
      (e) =>
        e.type === 'payment_intent.succeeded' &&
        (e.data.object as { metadata: Record<string, string> }).metadata.orderId === order.id,
    );
    expect(succeeded).toBeDefined();
    expect((await deliverWebhook(app.url, succeeded, WEBHOOK_SECRET)).status).toBe(200);
    await eventually(async () => (await cli.call('GET', `/v1/entitlements/${listingId}`)).status === 200, {
      description: 'the entitlement',
    });
    expect((await json(await cli.call('GET', '/v1/orders'))).orders[0]).toMatchObject({ id: order.id, status: 'paid' });
    // Nor does the wallet page speak of test cards: its top-up has no card field here.
    await page.goto(`${app.url}/wallet`);
    await page.getByRole('heading', { name: 'Top up' }).waitFor();
    expect(await page.getByRole('note', { name: 'Sandbox test cards' }).count()).toBe(0);
    expect(await page.getByLabel('Card number').count()).toBe(0);
    await context.close();
  });

  it('POST /v1/billing/card-setup-session: one session per Idempotency-Key, a 400 with a message for a bad listing id', async () => {
    const email = `api-${randomUUID()}@example.com`;
    const commands = app.server.app.get(CommandBus);
    const userId: string = await commands.execute(new EnsureUserCommand(email));
    const issued: IssuedToken = await commands.execute(new IssueTokenCommand(userId, 'cli', [...SCOPES], 'admin'));
    const cli = callerFor(app, userId, issued.token);
    await eventually(async () => (await cli.call('GET', '/v1/users/me')).status === 200);
    const listingId = randomUUID();
    const key = { 'Idempotency-Key': randomUUID() };
    const before = stripe.count('checkout.session');

    const first = await cli.call('POST', '/v1/billing/card-setup-session', { listingId }, key);
    const again = await cli.call('POST', '/v1/billing/card-setup-session', { listingId }, key);

    expect(first.status).toBe(200);
    const { url } = await json(first);
    expect(url).toMatch(new RegExp(`^${stripe.url}/c/pay/cs_test_`));
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await json(again)).toEqual({ url });
    expect(stripe.count('checkout.session')).toBe(before + 1);
    const bad = await cli.call('POST', '/v1/billing/card-setup-session', { listingId: 'nope' });
    expect(bad.status).toBe(400);
    expect((await json(bad)).message).toEqual(expect.stringContaining('listingId must be a UUID'));
  });

  it('a buyer who leaves the hosted form comes back to checkout told no card was added', async () => {
    const email = `leaves-${randomUUID()}@example.com`;
    const context = await browser.newContext();
    const page = await context.newPage();
    // A real listing: the checkout of an unknown one is not found.
    const seed = await CatalogSeed.for(app);
    const vendor = await seed.vendor(`leaves-${randomUUID().slice(0, 8)}`);
    const { listingId } = await seed.listing({ vendor, slug: 'left-skill', title: 'Left skill', priceCents: 800 });
    await page.goto(`${app.url}/checkout/${listingId}`);
    await signInLocally(page, email);
    await page.waitForURL(/\/checkout\//);
    await page.getByRole('button', { name: 'Add a card' }).click();
    await page.waitForURL((url) => url.href.startsWith(`${stripe.url}/c/pay/`));
    await page.getByRole('link', { name: 'Back' }).click();
    await page.waitForURL((url) => url.searchParams.get('card') === 'canceled');
    await page.getByText('No card was added.').waitFor();
    await page.getByRole('button', { name: 'Add a card' }).waitFor();
    await context.close();
  });
});
