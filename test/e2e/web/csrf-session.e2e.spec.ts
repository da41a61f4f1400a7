import { randomUUID } from 'node:crypto';
import { Browser, BrowserContext, Page } from 'playwright-core';
import { startTestApp, TestApp } from '../../support/app';
import { freePort, launchBrowser, signInLocally } from '../../support/browser';

/**
 * A form's CSRF token belongs to the web session it was rendered for: another session's cookie, or the
 * same browser after a new sign-in, does not make it valid.
 */
describe('web: CSRF tokens are bound to the session', () => {
  let app: TestApp;
  let browser: Browser;

  beforeAll(async () => {
    const port = await freePort();
    app = await startTestApp({ env: { PORT: String(port), BASE_URL: `http://127.0.0.1:${port}`, WEB_LOCAL_IDP: 'true' } });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  const signedIn = async (email: string): Promise<{ context: BrowserContext; page: Page }> => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${app.url}/settings/tokens`);
    await signInLocally(page, email);
    await page.waitForURL(/\/settings\/tokens$/);
    return { context, page };
  };

  /** The create-a-token form's CSRF token, as the page rendered it. */
  const formToken = (page: Page) => page.locator('form[action="/settings/tokens"] input[name="_csrf"]').inputValue();

  /** Submits the create-a-token form over plain HTTP with exactly these cookies. */
  const createToken = (csrfToken: string, cookies: { name: string; value: string }[], name: string) =>
    fetch(`${app.url}/settings/tokens`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        cookie: cookies.map((c) => `${c.name}=${c.value}`).join('; '),
      },
      body: new URLSearchParams({ _csrf: csrfToken, name, scopes: 'read', expiresInDays: '', policyId: '' }).toString(),
    });

  const listed = async (page: Page, name: string) => {
    await page.goto(`${app.url}/settings/tokens`);
    await page.getByRole('heading', { name: 'Your tokens' }).waitFor();
    return page.getByRole('cell', { name, exact: true }).count();
  };

  it("a token from session A's form, sent with session B's cookie, is refused and nothing changes", async () => {
    const a = await signedIn(`csrf-a-${randomUUID()}@example.com`);
    const b = await signedIn(`csrf-b-${randomUUID()}@example.com`);
    const tokenA = await formToken(a.page);
    const cookiesA = await a.context.cookies(app.url);
    const sessionB = (await b.context.cookies(app.url)).find((c) => c.name === 'svc_session')!;
    expect(sessionB).toBeDefined();

    // Everything A's browser holds (its token, any CSRF cookie), but B's session.
    const forged = await createToken(tokenA, [...cookiesA.filter((c) => c.name !== 'svc_session'), sessionB], 'forged');
    expect(forged.status).toBe(403);
    expect(await forged.text()).toContain('belongs to another session');
    expect(await listed(b.page, 'forged')).toBe(0);

    // The same token with A's own cookies is a valid form: it was the session that refused it.
    const genuine = await createToken(tokenA, cookiesA, 'from-a');
    expect(genuine.status).toBe(200);
    expect(await listed(a.page, 'from-a')).toBe(1);
    expect(await listed(b.page, 'from-a')).toBe(0);
    await a.context.close();
    await b.context.close();
  });

  it('a token from before a sign-in does not work after it: signing in rotates the secret', async () => {
    const email = `csrf-rotate-${randomUUID()}@example.com`;
    const { context, page } = await signedIn(email);
    const before = await formToken(page);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${app.url}/`);
    await page.goto(`${app.url}/settings/tokens`);
    // The local provider still knows this browser: signing in again goes straight back, a new session.
    await page.getByRole('link', { name: /Sign in with e-mail/ }).click();
    await page.waitForURL(/\/settings\/tokens$/);
    await page.getByRole('button', { name: 'Sign out' }).waitFor();

    const stale = await createToken(before, await context.cookies(app.url), 'stale');
    expect(stale.status).toBe(403);
    expect(await stale.text()).toContain('before you signed in again');
    expect(await listed(page, 'stale')).toBe(0);
    // The page's new token works.
    const fresh = await createToken(await formToken(page), await context.cookies(app.url), 'fresh');
    expect(fresh.status).toBe(200);
    expect(await listed(page, 'fresh')).toBe(1);
    await context.close();
  });
});
