import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { CommandBus } from '@nestjs/cqrs';
import { Browser, BrowserContext, Page } from 'playwright-core';
import { DataSource } from 'typeorm';
import { IssuedToken, IssueTokenCommand } from '../../../src/modules/auth/commands/issue-token/issue-token.command';
import { SCOPES } from '../../../src/modules/auth/domain/api-token';
import { EnsureUserCommand } from '../../../src/modules/users/commands/ensure-user/ensure-user.command';
import { Caller, callerFor, eventually } from '../../support/accounts';
import { startTestApp, TestApp } from '../../support/app';
import { freePort, launchBrowser, screenshot, signInLocally } from '../../support/browser';
import { CatalogSeed } from '../../support/catalog-seed';
import { json } from '../../support/http';
import { fundWallet } from '../../support/wallet';

describe('web: approvals, tokens and wallet in a browser, with an accessibility walk', () => {
  let app: TestApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let owner: Caller;
  let seed: CatalogSeed;
  const email = `owner-${randomUUID()}@example.com`;

  beforeAll(async () => {
    const port = await freePort();
    app = await startTestApp({ env: { PORT: String(port), BASE_URL: `http://127.0.0.1:${port}`, WEB_LOCAL_IDP: 'true' } });
    seed = await CatalogSeed.for(app);
    browser = await launchBrowser();
    // The accessibility checker is injected as a script, which the pages' CSP would rightly refuse.
    context = await browser.newContext({ bypassCSP: true });
    page = await context.newPage();
    await page.goto(`${app.url}/approvals`);
    await signInLocally(page, email);
    await page.waitForURL(/\/approvals$/);
    // The same person through the API: the account the sign-in created.
    const commands = app.server.app.get(CommandBus);
    const userId: string = await commands.execute(new EnsureUserCommand(email));
    const issued: IssuedToken = await commands.execute(new IssueTokenCommand(userId, 'test', [...SCOPES], 'admin'));
    owner = callerFor(app, userId, issued.token);
    await eventually(async () => (await owner.call('GET', '/v1/wallet')).status === 200);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('approve one policy-held purchase and decline another', async () => {
    await fundWallet(app, owner, 5_000);
    const policy = await json(await owner.call('POST', '/v1/policies', { name: 'agent budget', requireApprovalAboveCents: 100 }));
    const minted = await json(
      await owner.call('POST', '/v1/auth/tokens', { name: 'shopping agent', scopes: ['purchase', 'read'], policyId: policy.id }),
    );
    const agent = callerFor(app, owner.userId, minted.token);
    await eventually(async () => (await agent.call('GET', '/v1/wallet')).status === 200);
    const vendor = await seed.vendor(`shop-${randomUUID().slice(0, 8)}`);
    const wanted = await seed.listing({ vendor, slug: 'wanted', title: 'Wanted skill', priceCents: 500 });
    const unwanted = await seed.listing({ vendor, slug: 'unwanted', title: 'Unwanted skill', priceCents: 700 });
    const ask = async (listingId: string) => {
      const answer = await agent.call('POST', '/v1/purchases', { listingId, useWallet: true });
      expect(answer.status).toBe(402);
      return (await json(answer)).approvalUrl as string;
    };
    const wantedUrl = await ask(wanted.listingId);
    const unwantedUrl = await ask(unwanted.listingId);

    await page.goto(`${app.url}/approvals`);
    await page.getByRole('link', { name: /Wanted skill/ }).waitFor();
    await page.getByRole('link', { name: /Unwanted skill/ }).waitFor();
    await screenshot(page, 'approvals');

    await page.goto(wantedUrl);
    await page.getByText('5.00 USD').waitFor();
    await page.getByText('requireApprovalAboveCents').waitFor();
    await screenshot(page, 'approval');
    await page.getByText('the token “shopping agent”').waitFor();
    await page.getByRole('button', { name: 'Approve and buy' }).click();
    await page.getByText('Approved: the purchase is made.').waitFor();
    await page.getByText('This request was already approved').waitFor();

    await page.goto(unwantedUrl);
    await page.getByRole('button', { name: 'Decline' }).click();
    await page.getByText('Declined: nothing was bought.').waitFor();

    const owned = await json(await owner.call('GET', '/v1/entitlements'));
    expect(owned.entitlements.map((e: { listingId: string }) => e.listingId)).toEqual([wanted.listingId]);
    expect((await json(await owner.call('GET', '/v1/wallet'))).balanceCents).toBe(4_500);
  });

  it('create a token (shown once, it works), then revoke it', async () => {
    await page.goto(`${app.url}/settings/tokens`);
    await page.getByLabel('Name').fill('laptop');
    await page.getByLabel('read').check();
    await page.getByLabel('Expires after (days, empty for never)').fill('30');
    await page.getByRole('button', { name: 'Create token' }).click();
    const token = await page.getByLabel('Your new token').inputValue();
    expect(token).toMatch(/^svc_/);
    await screenshot(page, 'tokens');
    const laptop = callerFor(app, owner.userId, token);
    expect((await laptop.call('GET', '/v1/users/me')).status).toBe(200);
    // Shown once: a reload lists it without the secret.
    await page.goto(`${app.url}/settings/tokens`);
    expect(await page.content()).not.toContain(token);

    await page.getByRole('button', { name: 'Revoke laptop' }).click();
    await page.getByText('Token revoked.').waitFor();
    expect((await laptop.call('GET', '/v1/users/me')).status).toBe(401);
  });

  it('the wallet shows the balance and its transactions; a bad amount is explained', async () => {
    await page.goto(`${app.url}/wallet`);
    await page.getByText('Balance: 45.00 USD').waitFor();
    await page.getByLabel('Amount (USD)').fill('lots');
    await page.getByRole('button', { name: 'Top up' }).click();
    await page.getByText('Enter an amount in dollars').waitFor();
    await screenshot(page, 'wallet');
  });

  it('no serious accessibility violations on the main pages (axe-core)', async () => {
    const axe = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
    const pages = [
      '/',
      '/packages/missing/none',
      '/device',
      '/approvals',
      '/settings/tokens',
      '/settings/policies',
      '/wallet',
      '/orgs',
    ];
    const found: string[] = [];
    for (const path of pages) {
      await page.goto(`${app.url}${path}`);
      await page.addScriptTag({ content: axe });
      // A string, so it runs in the page without the DOM types in this (node) project.
      const violations = (await page.evaluate(
        'window.axe.run().then((result) => result.violations.map((v) => ({ id: v.id, impact: v.impact })))',
      )) as { id: string; impact: string }[];
      for (const v of violations) if (v.impact === 'serious' || v.impact === 'critical') found.push(`${path}: ${v.id}`);
    }
    expect(found).toEqual([]);
  });

  it('signing out ends the session and revokes its token', async () => {
    await page.goto(`${app.url}/wallet`);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${app.url}/`);
    await page.goto(`${app.url}/wallet`);
    await page.waitForURL(/\/signin/);
    const rows = await app.server.app.get(DataSource).query(`SELECT count(*)::int AS n FROM web_sessions`);
    expect(rows[0].n).toBe(0);
  });
});
