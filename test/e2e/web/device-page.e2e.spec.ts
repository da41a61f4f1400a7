import { randomUUID } from 'node:crypto';
import { Browser } from 'playwright-core';
import { startTestApp, TestApp } from '../../support/app';
import { freePort, launchBrowser, screenshot, signInLocally } from '../../support/browser';
import { json } from '../../support/http';

describe('web: the device page, from the CLI and the browser', () => {
  let app: TestApp;
  let browser: Browser;

  beforeAll(async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    app = await startTestApp({ env: { PORT: String(port), BASE_URL: url, WEB_LOCAL_IDP: 'true' } });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  const post = (path: string, body: unknown = {}) =>
    fetch(`${app.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it('start, open the page, sign in, enter the code, approve: the poll gets a working token', async () => {
    const start = await json(await post('/v1/auth/device/start'));
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(start.verificationUri);
    // Anonymous: sent to sign in first, then back to the device page.
    await screenshot(page, 'signin');
    const email = `cli-${randomUUID()}@example.com`;
    await signInLocally(page, email);
    await page.waitForURL(/\/device$/);
    await screenshot(page, 'device');

    // Case and dashes do not matter.
    const typed = `${start.userCode.slice(0, 4).toLowerCase()}-${start.userCode.slice(4).toLowerCase()}`;
    await page.getByLabel('Code').fill(typed);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: 'Approve this sign-in?' }).waitFor();
    for (const scope of ['read', 'purchase', 'download', 'sell'])
      await expect(page.getByText(`${scope}:`).count()).resolves.toBe(1);
    await screenshot(page, 'device-confirm');
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.getByText('your device is signed in').waitFor();

    const polled = await json(await post('/v1/auth/device/poll', { deviceCode: start.deviceCode }));
    expect(polled).toEqual({
      status: 'approved',
      token: expect.stringMatching(/^svc_/),
      tokenType: 'Bearer',
      expiresIn: expect.anything(),
    });
    const me = await fetch(`${app.url}/v1/users/me`, { headers: { authorization: `Bearer ${polled.token}` } });
    expect(me.status).toBe(200);
    expect((await json(me)).user.email).toBe(email);

    // The session's own API token never reached the browser.
    const cookies = await context.cookies();
    expect(cookies.map((c) => c.name).sort()).toEqual(expect.arrayContaining(['svc_session']));
    for (const c of cookies) expect(c.value).not.toMatch(/^svc_/);
    const session = cookies.find((c) => c.name === 'svc_session')!;
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
    await context.close();
  });

  it('the confirm page says which client asks, in its own words and escaped; one that gave no name is unnamed', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${app.url}/device`);
    await signInLocally(page, `named-${randomUUID()}@example.com`);
    await page.waitForURL(/\/device$/);
    const clientName = 'svc 9.9.9 on <b id="injected">box</b>';
    const named = await json(await post('/v1/auth/device/start', { clientName }));
    await page.getByLabel('Code').fill(named.userCode);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByText(`A client calling itself “${clientName}” is asking to sign in as you`).waitFor();
    expect(await page.locator('#injected').count()).toBe(0);
    await page.getByText('read:').waitFor();

    const unnamed = await json(await post('/v1/auth/device/start'));
    await page.goto(`${app.url}/device?code=${unnamed.userCode}`);
    await page.getByText('An unnamed client is asking to sign in as you').waitFor();
    await context.close();
  });

  it('a wrong code says so; deny is recorded: the poll answers denied and the code cannot be used again', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${app.url}/device`);
    await signInLocally(page, `deny-${randomUUID()}@example.com`);
    await page.waitForURL(/\/device$/);
    await page.getByLabel('Code').fill('ZZZZ-ZZZZ');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByText('No sign-in is waiting for this code').waitFor();
    await page.getByLabel('Code').fill('hello');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByText('That is not a code').waitFor();

    const start = await json(await post('/v1/auth/device/start'));
    await page.getByLabel('Code').fill(start.userCode);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('button', { name: 'Deny' }).click();
    await page.getByText('The device was not signed in').waitFor();
    await screenshot(page, 'device-denied');
    expect(await json(await post('/v1/auth/device/poll', { deviceCode: start.deviceCode }))).toEqual({ status: 'denied' });

    // The page then refuses the denied code instead of offering to approve it.
    await page.goto(`${app.url}/device?code=${start.userCode}`);
    await page.getByText('This sign-in was denied').waitFor();
    await context.close();
  });
});
