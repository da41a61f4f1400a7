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

  it('create a spend policy, change a limit, delete it; a refused value shows the API message, values kept', async () => {
    const policyNamed = async (name: string) =>
      (await json(await owner.call('GET', '/v1/policies'))).policies.find((p: { name: string }) => p.name === name);
    await page.goto(`${app.url}/settings/policies`);
    const create = page.getByRole('form', { name: 'Create a policy' });
    await create.getByLabel('Name').fill('laptop budget');
    await create.getByLabel('Daily limit (USD)').fill('lots');
    await create.getByLabel('mcp').check();
    await create.getByRole('button', { name: 'Create policy' }).click();
    // The API's own message, and the form as it was typed.
    const refused = await json(await owner.call('POST', '/v1/policies', { name: 'probe', dailyLimitCents: 'lots' }));
    await create.getByText(`Not created: ${refused.message}`).waitFor();
    expect(await create.getByLabel('Name').inputValue()).toBe('laptop budget');
    expect(await create.getByLabel('Daily limit (USD)').inputValue()).toBe('lots');
    expect(await create.getByLabel('mcp').isChecked()).toBe(true);
    expect(await policyNamed('laptop budget')).toBeUndefined();

    await create.getByLabel('Daily limit (USD)').fill('20');
    await create.getByLabel('Monthly limit (USD)').fill('100.50');
    await create.getByRole('button', { name: 'Create policy' }).click();
    await page.getByText('Policy “laptop budget” created.').waitFor();
    expect(await policyNamed('laptop budget')).toMatchObject({
      dailyLimitCents: 2000,
      monthlyLimitCents: 10050,
      maxPerPurchaseCents: null,
      blockedTypes: ['mcp'],
      vendorAllowlist: [],
      active: true,
    });
    await page
      .getByRole('row', { name: /laptop budget/ })
      .getByText('20.00 USD')
      .waitFor();

    await page.getByText('Edit laptop budget').click();
    const edit = page.getByRole('form', { name: 'Edit laptop budget' });
    expect(await edit.getByLabel('Monthly limit (USD)').inputValue()).toBe('100.50');
    await edit.getByLabel('Daily limit (USD)').fill('35');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Policy “laptop budget” saved.').waitFor();
    await page
      .getByRole('row', { name: /laptop budget/ })
      .getByText('35.00 USD')
      .waitFor();
    const saved = await policyNamed('laptop budget');
    expect(saved).toMatchObject({ dailyLimitCents: 3500, monthlyLimitCents: 10050, blockedTypes: ['mcp'] });
    await screenshot(page, 'policies');

    // A refused edit keeps its form open with what was typed; the policy is unchanged.
    await page.getByText('Edit laptop budget').click();
    await edit.getByLabel('Daily limit (USD)').fill('-5');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    const negative = await json(await owner.call('PATCH', `/v1/policies/${saved.id}`, { dailyLimitCents: -500 }));
    await edit.getByText(`Not saved: ${negative.message}`).waitFor();
    expect(await edit.getByLabel('Daily limit (USD)').inputValue()).toBe('-5');
    expect((await policyNamed('laptop budget')).dailyLimitCents).toBe(3500);

    // Every form needs its CSRF token.
    const forged = await page.request.post(`${app.url}/settings/policies/${saved.id}/delete`, { form: {} });
    expect(forged.status()).toBe(403);
    expect(await policyNamed('laptop budget')).toBeDefined();

    await page.getByRole('button', { name: 'Delete laptop budget' }).click();
    await page.getByText('Policy deleted.').waitFor();
    expect(await page.getByRole('row', { name: /laptop budget/ }).count()).toBe(0);
    expect(await policyNamed('laptop budget')).toBeUndefined();
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
