import { randomUUID } from 'node:crypto';
import { CommandBus } from '@nestjs/cqrs';
import { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { IssuedToken, IssueTokenCommand } from '../../../src/modules/auth/commands/issue-token/issue-token.command';
import { SCOPES } from '../../../src/modules/auth/domain/api-token';
import { InvitationTokens } from '../../../src/modules/orgs/domain/invitation-tokens';
import { EnsureUserCommand } from '../../../src/modules/users/commands/ensure-user/ensure-user.command';
import { Caller, callerFor, eventually, newCaller } from '../../support/accounts';
import { startTestApp, TestApp } from '../../support/app';
import { freePort, launchBrowser, screenshot, seriousAccessibilityViolations, signInLocally } from '../../support/browser';
import { CatalogSeed } from '../../support/catalog-seed';
import { json } from '../../support/http';
import { createOrg } from '../../support/orgs';
import { fundWallet } from '../../support/wallet';

/**
 * Every page a person meets, in the states the API leads them to: an accessibility walk (axe-core)
 * over the pages the account walk does not reach, and the main pages at a phone's width.
 */
describe('web: the page walk (accessibility) and phone-width pages', () => {
  let app: TestApp;
  let browser: Browser;
  let owner: Caller;
  const email = `walker-${randomUUID()}@example.com`;
  let packagePath: string;
  let approvalUrl: string;
  let checkoutUrl: string;
  let invitationUrl: string;

  beforeAll(async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    app = await startTestApp({ env: { PORT: String(port), BASE_URL: url, WEB_URL: url, WEB_LOCAL_IDP: 'true' } });
    browser = await launchBrowser();

    // The walker, through the API: the account the browser's sign-in reaches too.
    const commands = app.server.app.get(CommandBus);
    const userId: string = await commands.execute(new EnsureUserCommand(email));
    const issued: IssuedToken = await commands.execute(new IssueTokenCommand(userId, 'test', [...SCOPES], 'admin'));
    owner = callerFor(app, userId, issued.token);
    await eventually(async () => (await owner.call('GET', '/v1/wallet')).status === 200);

    const seed = await CatalogSeed.for(app);
    const vendor = await seed.vendor(`walk-${randomUUID().slice(0, 8)}`, { displayName: 'Walk Vendor', verified: true });
    const held = await seed.listing({
      vendor,
      slug: 'held',
      title: 'Held skill',
      priceCents: 500,
      readmeMd: '# Held\n\nA README.',
    });
    const carded = await seed.listing({ vendor, slug: 'carded', title: 'Carded skill', priceCents: 900 });
    packagePath = `/packages/${vendor.slug}/held`;

    // A purchase a spend policy holds for approval.
    await fundWallet(app, owner, 2_000);
    const policy = await json(await owner.call('POST', '/v1/policies', { name: 'walk budget', requireApprovalAboveCents: 100 }));
    const minted = await json(
      await owner.call('POST', '/v1/auth/tokens', { name: 'walking agent', scopes: ['purchase', 'read'], policyId: policy.id }),
    );
    const agent = callerFor(app, userId, minted.token);
    await eventually(async () => (await agent.call('GET', '/v1/wallet')).status === 200);
    const heldAnswer = await agent.call('POST', '/v1/purchases', { listingId: held.listingId, useWallet: true });
    expect(heldAnswer.status).toBe(402);
    approvalUrl = (await json(heldAnswer)).approvalUrl;
    expect(approvalUrl).toContain('/approvals/');

    // A card purchase with no saved card: the 402 points at checkout.
    const cardAnswer = await owner.call('POST', '/v1/purchases', { listingId: carded.listingId });
    expect(cardAnswer.status).toBe(402);
    checkoutUrl = (await json(cardAnswer)).approvalUrl;
    expect(checkoutUrl).toContain('/checkout/');

    // An organization's invitation to the walker, its token as the mail carries it.
    const inviter = await newCaller(app);
    const org = await createOrg(inviter);
    const invited = await inviter.call('POST', `/v1/orgs/${org.slug}/members`, { email, role: 'member' });
    expect(invited.status).toBe(201);
    const { invitation } = await json(invited);
    invitationUrl = `${app.url}/invitations/${app.server.app.get(InvitationTokens).tokenFor(invitation.id)}`;
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  /** A browser context signed in as the walker; `bypassCSP` lets the accessibility checker's script in. */
  const signedIn = async (options: { viewport?: { width: number; height: number } } = {}) => {
    const context = await browser.newContext({ bypassCSP: true, ...options });
    const page = await context.newPage();
    await page.goto(`${app.url}/wallet`);
    await signInLocally(page, email);
    await page.waitForURL(/\/wallet$/);
    return { context, page };
  };

  const startDevice = async () =>
    json(await fetch(`${app.url}/v1/auth/device/start`, { method: 'POST', headers: { 'content-type': 'application/json' } }));

  it('no serious accessibility violations on the sign-in, device, approval, checkout and invitation pages (axe-core)', async () => {
    const found: string[] = [];
    const check = async (page: Page, name: string, ready: Locator) => {
      await ready.waitFor();
      for (const violation of await seriousAccessibilityViolations(page)) found.push(`${name}: ${violation}`);
    };

    // Anonymous: the sign-in page and the local provider's e-mail form.
    const anonymous = await browser.newContext({ bypassCSP: true });
    const visitor = await anonymous.newPage();
    await visitor.goto(`${app.url}/signin?returnTo=%2Fdevice`);
    await check(visitor, 'sign-in', visitor.getByRole('link', { name: /Sign in with e-mail/ }));
    await visitor.getByRole('link', { name: /Sign in with e-mail/ }).click();
    await check(visitor, 'local sign-in form', visitor.getByLabel('E-mail'));
    await anonymous.close();

    const { context, page } = await signedIn();
    await page.goto(`${app.url}/device`);
    await check(page, 'device', page.getByLabel('Code'));
    const device = await startDevice();
    await page.goto(`${app.url}/device?code=${device.userCode}`);
    await check(page, 'device confirm', page.getByRole('heading', { name: 'Approve this sign-in?' }));
    await page.goto(approvalUrl);
    await check(page, 'approval', page.getByRole('button', { name: 'Approve and buy' }));
    await page.goto(checkoutUrl);
    await check(page, 'checkout', page.getByRole('button', { name: 'Save the card' }));
    await page.goto(invitationUrl);
    await check(page, 'invitation', page.getByRole('button', { name: 'Accept the invitation' }));
    await context.close();

    expect(found).toEqual([]);
  });

  it('at a phone’s width (375×667) the main pages do not scroll sideways and their controls are on screen', async () => {
    const width = 375;
    const { context, page } = await signedIn({ viewport: { width, height: 667 } });
    const device = await startDevice();
    const pages: { name: string; path: string; controls: (page: Page) => Locator[] }[] = [
      {
        name: 'home',
        path: '/',
        controls: (p) => [p.getByLabel('Search', { exact: true }), p.getByRole('button', { name: 'Search' })],
      },
      {
        name: 'package',
        path: packagePath,
        controls: (p) => [p.getByRole('heading', { name: 'Held skill' }), p.getByText(/svc install walk-/)],
      },
      { name: 'device', path: '/device', controls: (p) => [p.getByLabel('Code'), p.getByRole('button', { name: 'Continue' })] },
      {
        name: 'device-confirm',
        path: `/device?code=${device.userCode}`,
        controls: (p) => [p.getByRole('button', { name: 'Approve' }), p.getByRole('button', { name: 'Deny' })],
      },
      { name: 'approvals', path: '/approvals', controls: (p) => [p.getByRole('link', { name: /Held skill/ })] },
      {
        name: 'approval',
        path: new URL(approvalUrl).pathname,
        controls: (p) => [p.getByRole('button', { name: 'Approve and buy' }), p.getByRole('button', { name: 'Decline' })],
      },
      {
        name: 'tokens',
        path: '/settings/tokens',
        controls: (p) => [
          p.getByRole('button', { name: 'Revoke walking agent' }),
          p.getByRole('button', { name: 'Create token' }),
        ],
      },
      {
        name: 'wallet',
        path: '/wallet',
        controls: (p) => [p.getByLabel('Amount (USD)'), p.getByRole('button', { name: 'Top up' })],
      },
      {
        name: 'checkout',
        path: new URL(checkoutUrl).pathname,
        controls: (p) => [p.getByLabel('Card number'), p.getByRole('button', { name: 'Save the card' })],
      },
    ];
    const problems: string[] = [];
    for (const { name, path, controls } of pages) {
      await page.goto(`${app.url}${path}`);
      const wanted = controls(page);
      await wanted[0].waitFor();
      // A string, so it runs in the page without the DOM types in this (node) project.
      const { scrollWidth, clientWidth } = (await page.evaluate(
        '({ scrollWidth: document.documentElement.scrollWidth, clientWidth: document.documentElement.clientWidth })',
      )) as { scrollWidth: number; clientWidth: number };
      if (scrollWidth > clientWidth) problems.push(`${name}: ${scrollWidth}px wide in a ${clientWidth}px window`);
      for (const control of [page.getByRole('button', { name: 'Sign out' }), ...wanted]) {
        await control.scrollIntoViewIfNeeded();
        const box = await control.boundingBox();
        if (!(await control.isVisible()) || !box || box.x < 0 || box.x + box.width > clientWidth)
          problems.push(`${name}: ${control} is not on screen (${JSON.stringify(box)})`);
      }
      await screenshot(page, `phone-${name}`);
    }
    await context.close();
    expect(problems).toEqual([]);
  });
});
