import { randomUUID } from 'node:crypto';
import { CommandBus } from '@nestjs/cqrs';
import { Browser } from 'playwright-core';
import { DataSource } from 'typeorm';
import { IssuedToken, IssueTokenCommand } from '../../../src/modules/auth/commands/issue-token/issue-token.command';
import { SCOPES } from '../../../src/modules/auth/domain/api-token';
import { RemovePaymentMethodCommand } from '../../../src/modules/billing/commands/remove-payment-method/remove-payment-method.command';
import { EnsureUserCommand } from '../../../src/modules/users/commands/ensure-user/ensure-user.command';
import { callerFor, eventually } from '../../support/accounts';
import { startTestApp, TestApp } from '../../support/app';
import { freePort, launchBrowser, screenshot, signInLocally } from '../../support/browser';
import { CatalogSeed } from '../../support/catalog-seed';
import { json } from '../../support/http';

describe('web: checkout, where a 402 for want of a saved card points', () => {
  let app: TestApp;
  let browser: Browser;

  beforeAll(async () => {
    const port = await freePort();
    // The sandbox settles the card's setup and the charge by itself, as it does on a developer's machine.
    app = await startTestApp({
      env: { PORT: String(port), BASE_URL: `http://127.0.0.1:${port}`, WEB_LOCAL_IDP: 'true', PAY_SANDBOX_AUTO_SETTLE: 'true' },
    });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('add the sandbox test card, then complete the card purchase', async () => {
    const email = `buyer-${randomUUID()}@example.com`;
    const commands = app.server.app.get(CommandBus);
    const userId: string = await commands.execute(new EnsureUserCommand(email));
    const issued: IssuedToken = await commands.execute(new IssueTokenCommand(userId, 'cli', [...SCOPES], 'admin'));
    const cli = callerFor(app, userId, issued.token);
    await eventually(async () => (await cli.call('GET', '/v1/users/me')).status === 200);
    const seed = await CatalogSeed.for(app);
    const vendor = await seed.vendor(`shop-${randomUUID().slice(0, 8)}`, { displayName: 'Paid Shop' });
    const { listingId } = await seed.listing({ vendor, slug: 'paid-skill', title: 'Paid skill', priceCents: 900 });

    const refused = await cli.call('POST', '/v1/purchases', { listingId });
    expect(refused.status).toBe(402);
    const { approvalUrl } = await json(refused);
    expect(approvalUrl).toContain('/checkout/');

    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(approvalUrl);
    await signInLocally(page, email);
    await page.waitForURL(/\/checkout\//);
    await page.getByLabel('Card number').fill('4111 1111 1111 1111');
    await page.getByRole('button', { name: 'Save the card' }).click();
    await page.getByRole('alert').getByText('takes only test cards').waitFor();
    // A test card that declines is refused as the processor refuses it: nothing saved.
    await page.getByLabel('Card number').fill('4000 0000 0000 0002');
    await page.getByRole('button', { name: 'Save the card' }).click();
    await page.getByRole('alert').getByText('Your card was declined. (card_declined: generic_decline)').waitFor();
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByRole('button', { name: 'Save the card' }).click();
    await page.getByText('Your card is being saved').waitFor();
    await eventually(async () => (await json(await cli.call('GET', '/v1/billing/payment-methods'))).paymentMethods.length > 0, {
      description: 'the sandbox to save the card',
    });
    await page.getByRole('link', { name: 'Continue to the purchase' }).click();
    await page.getByText(/Saved cards: .* ending 4242/).waitFor();
    // What is being bought, from the listing's own terms.
    await page.getByRole('heading', { name: 'Buy Paid skill' }).waitFor();
    await page.getByText('Paid skill v1.0.0').waitFor();
    await page.getByText(`Paid Shop (${vendor.slug})`).waitFor();
    await page.getByText('9.00 USD').waitFor();
    await screenshot(page, 'checkout');
    // A failed attempt (an empty wallet) shows the same page again: the saved card, no card form.
    await page.getByLabel('Wallet').check();
    await page.getByRole('button', { name: 'Complete the purchase' }).click();
    await page.getByRole('alert').waitFor();
    await page.getByText(/Saved cards: .* ending 4242/).waitFor();
    expect(await page.getByRole('button', { name: 'Add a card' }).count()).toBe(0);
    await page.getByLabel('Saved card').check();
    await page.getByRole('button', { name: 'Complete the purchase' }).click();
    await page.getByText('Purchased: the package is yours.').waitFor();
    await eventually(async () => (await cli.call('GET', `/v1/entitlements/${listingId}`)).status === 200, {
      description: 'the entitlement',
    });
    await context.close();
  });
  it('in the sandbox, the checkout and wallet pages say which test cards to use and what each does', async () => {
    const email = `notes-${randomUUID()}@example.com`;
    const seed = await CatalogSeed.for(app);
    const vendor = await seed.vendor(`notes-${randomUUID().slice(0, 8)}`);
    const { listingId } = await seed.listing({ vendor, slug: 'noted-skill', title: 'Noted skill', priceCents: 700 });
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${app.url}/checkout/${listingId}`);
    await signInLocally(page, email);
    await page.waitForURL(/\/checkout\//);
    const expectNote = async () => {
      const note = page.getByRole('note', { name: 'Sandbox test cards' });
      await note.waitFor();
      for (const line of [
        '4242 4242 4242 4242 succeeds',
        '4000 0000 0000 0002 is declined (card_declined)',
        '4000 0000 0000 9995 is declined for insufficient funds (insufficient_funds)',
        '4000 0000 0000 0341 saves fine, then every charge of it is declined (card_declined)',
      ])
        await note.getByText(line).waitFor();
    };
    // On the checkout, beside the card field.
    await expectNote();
    await page.getByLabel('Card number').waitFor();
    await screenshot(page, 'checkout-sandbox-cards');

    // On the wallet, beside the top-up's card field, which pays with the card typed there.
    await page.goto(`${app.url}/wallet`);
    await expectNote();
    expect(await page.getByLabel('Card number').inputValue()).toBe('4242 4242 4242 4242');
    await page.getByText('save 4000 0000 0000 0341 at checkout to see one declined').waitFor();
    await page.getByLabel('Amount (USD)').fill('15');
    await page.getByLabel('Card number').fill('4000 0000 0000 9995');
    await page.getByRole('button', { name: 'Top up' }).click();
    await page.getByRole('status').getByText('Your card has insufficient funds. (card_declined: insufficient_funds)').waitFor();
    await screenshot(page, 'wallet-sandbox-cards');
    await context.close();
  });

  it('a checkout names what is bought; an unknown listing, or someone else’s approval, is not found', async () => {
    const email = `looker-${randomUUID()}@example.com`;
    const seed = await CatalogSeed.for(app);
    const vendor = await seed.vendor(`look-${randomUUID().slice(0, 8)}`);
    const { listingId } = await seed.listing({ vendor, slug: 'shown-skill', title: 'Shown <b>skill</b>', priceCents: 1250 });
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${app.url}/checkout/${listingId}`);
    await signInLocally(page, email);
    await page.waitForURL(/\/checkout\//);
    await page.getByText('Shown <b>skill</b> v1.0.0').waitFor();
    await page.getByText('12.50 USD').waitFor();
    expect((await page.goto(`${app.url}/checkout/${randomUUID()}`))!.status()).toBe(404);
    // Someone else's approval: 404, as if it did not exist, whether it matches the listing or not.
    const other = await agentAskingForApproval(seed, 700);
    expect((await page.goto(`${app.url}/checkout/${other.listingId}?approvalId=${other.approvalId}`))!.status()).toBe(404);
    expect((await page.goto(`${app.url}/checkout/${listingId}?approvalId=${other.approvalId}`))!.status()).toBe(404);
    expect((await page.goto(`${app.url}/checkout/${listingId}?approvalId=nope`))!.status()).toBe(404);
    await context.close();
  });

  it('approving a card purchase with no saved card leads to its checkout, which adds one and completes that approval', async () => {
    const seed = await CatalogSeed.for(app);
    const asked = await agentAskingForApproval(seed, 900);
    const { owner } = asked;
    // The card saved when the agent asked is gone by the time its owner approves (detached at the processor).
    await app.server.app.get(CommandBus).execute(new RemovePaymentMethodCommand(asked.cardId));
    await eventually(
      async () => (await json(await owner.call('GET', '/v1/billing/payment-methods'))).paymentMethods.length === 0,
    );

    // The API says where to go: the checkout of this approval, in the spec's 402 shape.
    const refused = await owner.call('POST', `/v1/approvals/${asked.approvalId}/approve`);
    expect(refused.status).toBe(402);
    const answer = await json(refused);
    expect(answer).toEqual({
      status: 'approval_required',
      approvalUrl: `${app.url}/checkout/${asked.listingId}?releaseId=${asked.releaseId}&approvalId=${asked.approvalId}`,
      reason: expect.stringMatching(/add a card at checkout/),
      message: expect.any(String),
    });
    expect((await json(await owner.call('GET', `/v1/approvals/${asked.approvalId}`))).status).toBe('pending');

    // The approval page leads there too.
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(asked.approvalUrl);
    await signInLocally(page, owner.email);
    await page.waitForURL(/\/approvals\//);
    await page.getByRole('button', { name: 'Approve and buy' }).click();
    await page.waitForURL(
      new RegExp(`/checkout/${asked.listingId}\\?releaseId=${asked.releaseId}&approvalId=${asked.approvalId}$`),
    );
    await page.getByText('Approved skill v1.0.0').waitFor();
    await page.getByText('9.00 USD').waitFor();
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByRole('button', { name: 'Save the card' }).click();
    await eventually(async () => (await json(await owner.call('GET', '/v1/billing/payment-methods'))).paymentMethods.length > 0);
    await page.getByRole('link', { name: 'Continue to the purchase' }).click();
    await page.waitForURL(/approvalId=/);
    // The terms asked for: by card, no choice of wallet.
    expect(await page.getByLabel('Wallet').count()).toBe(0);
    await page.getByRole('button', { name: 'Complete the purchase' }).click();
    await page.getByText('Purchased: the package is yours.').waitFor();
    await screenshot(page, 'checkout-approval');

    const approval = await json(await owner.call('GET', `/v1/approvals/${asked.approvalId}`));
    expect(approval).toMatchObject({ status: 'approved', orderId: expect.any(String) });
    await eventually(async () => (await owner.call('GET', `/v1/entitlements/${asked.listingId}`)).status === 200, {
      description: 'the entitlement',
    });
    // Completed once: the checkout no longer offers to pay for it.
    await page.goto(`${app.url}/checkout/${asked.listingId}?approvalId=${asked.approvalId}`);
    await page.getByText('This approval request is approved').waitFor();
    expect(await page.getByRole('button', { name: 'Complete the purchase' }).count()).toBe(0);
    await context.close();
  });

  it('in the sandbox, which has no hosted card form, the card-setup session leads straight back to checkout', async () => {
    const commands = app.server.app.get(CommandBus);
    const userId: string = await commands.execute(new EnsureUserCommand(`sandbox-${randomUUID()}@example.com`));
    const issued: IssuedToken = await commands.execute(new IssueTokenCommand(userId, 'cli', [...SCOPES], 'admin'));
    const cli = callerFor(app, userId, issued.token);
    await eventually(async () => (await cli.call('GET', '/v1/users/me')).status === 200);
    const listingId = randomUUID();
    const answer = await cli.call('POST', '/v1/billing/card-setup-session', { listingId });
    expect(answer.status).toBe(200);
    expect(await json(answer)).toEqual({ url: `${app.url}/checkout/${listingId}?card=canceled&sandbox=1` });
  });

  it('a money form submitted twice (a double click, a resubmission) moves money once: the form carries its Idempotency-Key', async () => {
    const email = `twice-${randomUUID()}@example.com`;
    const commands = app.server.app.get(CommandBus);
    const userId: string = await commands.execute(new EnsureUserCommand(email));
    const issued: IssuedToken = await commands.execute(new IssueTokenCommand(userId, 'cli', [...SCOPES], 'admin'));
    const cli = callerFor(app, userId, issued.token);
    await eventually(async () => (await cli.call('GET', '/v1/users/me')).status === 200);

    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${app.url}/wallet`);
    await signInLocally(page, email);
    await page.waitForURL(/\/wallet/);
    const form = page.locator('form[action="/wallet/top-up"]');
    const fields = {
      _csrf: await form.locator('input[name="_csrf"]').inputValue(),
      idempotencyKey: await form.locator('input[name="idempotencyKey"]').inputValue(),
      amount: '12.50',
    };
    const send = () => page.request.post(`${app.url}/wallet/top-up`, { form: fields }).then((r) => r.status());
    expect([await send(), await send()]).toEqual([200, 200]);
    const [{ requested }] = await app.server.app
      .get(DataSource)
      .query(`SELECT count(*)::int AS requested FROM events WHERE type = 'TopUpRequested' AND data::text LIKE $1`, [
        `%${userId}%`,
      ]);
    expect(requested).toBe(1);
    await eventually(async () => (await json(await cli.call('GET', '/v1/wallet'))).balanceCents === 1250, {
      description: 'the one top-up to settle',
    });
    await context.close();
  });

  /** A user with a saved card whose agent (a token bound to a spend policy) asked to buy a listing by card. */
  async function agentAskingForApproval(seed: CatalogSeed, priceCents: number) {
    const email = `owner-${randomUUID()}@example.com`;
    const commands = app.server.app.get(CommandBus);
    const userId: string = await commands.execute(new EnsureUserCommand(email));
    const issued: IssuedToken = await commands.execute(new IssueTokenCommand(userId, 'cli', [...SCOPES], 'admin'));
    const owner = Object.assign(callerFor(app, userId, issued.token), { email });
    await eventually(async () => (await owner.call('GET', '/v1/users/me')).status === 200);
    expect((await owner.call('POST', '/v1/billing/setup-intent')).status).toBe(200);
    const [card] = await eventually(async () => {
      const { paymentMethods } = await json(await owner.call('GET', '/v1/billing/payment-methods'));
      return paymentMethods.length === 1 && paymentMethods;
    });
    const policy = await json(await owner.call('POST', '/v1/policies', { name: 'agent budget', requireApprovalAboveCents: 100 }));
    const minted = await json(
      await owner.call('POST', '/v1/auth/tokens', { name: 'shopping agent', scopes: ['purchase', 'read'], policyId: policy.id }),
    );
    const agent = callerFor(app, userId, minted.token);
    await eventually(async () => (await agent.call('GET', '/v1/users/me')).status === 200);
    const vendor = await seed.vendor(`shop-${randomUUID().slice(0, 8)}`);
    const { listingId } = await seed.listing({ vendor, slug: 'approved-skill', title: 'Approved skill', priceCents });
    const asked = await agent.call('POST', '/v1/purchases', { listingId });
    expect(asked.status).toBe(402);
    const { approvalUrl } = await json(asked);
    const approvalId = /\/approvals\/([0-9a-f-]{36})$/.exec(approvalUrl)![1];
    const { releaseId } = await json(await owner.call('GET', `/v1/approvals/${approvalId}`));
    return { owner, listingId, releaseId, approvalId, approvalUrl, cardId: card.id as string };
  }
});
