import { randomUUID } from 'node:crypto';
import { Browser } from 'playwright-core';
import { DataSource } from 'typeorm';
import { startTestApp, TestApp } from '../../support/app';
import { freePort, launchBrowser, screenshot } from '../../support/browser';
import { FakeGithub, startFakeGithub } from '../../support/fake-github';
import { OidcIssuer, startOidcIssuer } from '../../support/oidc-issuer';

/** Both configured providers: an OpenID Connect issuer and GitHub, each on loopback. */
describe('web: sign-in with GitHub and an OpenID Connect issuer, linked by verified e-mail', () => {
  let app: TestApp;
  let browser: Browser;
  let github: FakeGithub;
  let issuer: OidcIssuer;

  beforeAll(async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    github = await startFakeGithub({ clientId: 'web-client', clientSecret: 'web-secret' });
    issuer = await startOidcIssuer(`${url}/auth/oidc/callback`);
    app = await startTestApp({
      env: {
        PORT: String(port),
        BASE_URL: url,
        GITHUB_CLIENT_ID: 'web-client',
        GITHUB_CLIENT_SECRET: 'web-secret',
        GITHUB_OAUTH_URL: github.url,
        GITHUB_API_URL: github.url,
        OIDC_ISSUER_URL: issuer.issuerUrl,
        OIDC_CLIENT_ID: issuer.clientId,
        OIDC_CLIENT_SECRET: issuer.clientSecret,
      },
    });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await issuer?.close();
    await github?.close();
  });

  const audit = async () =>
    app.server.app
      .get(DataSource)
      .query(`SELECT kind, user_id, detail FROM auth_audit WHERE kind LIKE 'web_%' ORDER BY id`) as Promise<
      { kind: string; user_id: string | null; detail: Record<string, string> }[]
    >;

  it('offers exactly the configured providers; the same verified e-mail through either reaches the same account', async () => {
    const email = `linked-${randomUUID()}@example.com`;
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${app.url}/signin`);
    await page.getByRole('link', { name: 'Sign in with GitHub' }).waitFor();
    expect(await page.getByRole('link', { name: /Sign in with e-mail/ }).count()).toBe(0);
    await screenshot(page, 'signin-providers');

    await page.getByRole('link', { name: 'Sign in with OpenID Connect' }).click();
    await page.getByLabel('E-mail').fill(email);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${app.url}/`);

    github.signInBrowserAs(`gh-${randomUUID().slice(0, 8)}`, [
      { email: 'old@example.com', primary: false, verified: true },
      { email: email.toUpperCase(), primary: true, verified: true },
    ]);
    await page.goto(`${app.url}/signin`);
    await page.getByRole('link', { name: 'Sign in with GitHub' }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    await context.close();

    const signIns = (await audit()).filter((row) => row.kind === 'web_sign_in');
    expect(signIns.map((row) => row.detail.provider)).toEqual(['oidc', 'github']);
    expect(signIns[0].user_id).toBe(signIns[1].user_id);
    expect((await audit()).some((row) => row.kind === 'web_sign_out' && row.user_id === signIns[0].user_id)).toBe(true);
  });

  it('a GitHub account whose primary e-mail is not verified is refused, and the failure audited', async () => {
    github.signInBrowserAs(`unverified-${randomUUID().slice(0, 8)}`, [
      { email: `unverified-${randomUUID()}@example.com`, primary: true, verified: false },
    ]);
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${app.url}/signin`);
    await page.getByRole('link', { name: 'Sign in with GitHub' }).click();
    await page.getByText('Signing in did not work').waitFor();
    expect((await context.cookies()).some((c) => c.name === 'svc_session')).toBe(false);
    await context.close();
    const failures = (await audit()).filter((row) => row.kind === 'web_sign_in_failed');
    expect(failures.at(-1)?.detail).toMatchObject({ provider: 'github', reason: 'e-mail not verified' });
  });
});
