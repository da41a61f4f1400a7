import { randomUUID } from 'node:crypto';
import { ChildProcess } from 'node:child_process';
import { Browser } from 'playwright-core';
import { startTestApp, TestApp } from '../../support/app';
import { freePort, launchBrowser, screenshot, signInLocally } from '../../support/browser';
import { CliUser, finished } from '../../support/cli';

/** The real `svc` command line and the real web page, joined only by what the CLI prints. */
describe('web: `svc login` completed in a browser', () => {
  let app: TestApp;
  let browser: Browser;
  let user: CliUser;
  let child: ChildProcess | undefined;

  beforeAll(async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    app = await startTestApp({ env: { PORT: String(port), BASE_URL: url, WEB_URL: url, WEB_LOCAL_IDP: 'true' } });
    browser = await launchBrowser();
    user = await CliUser.create(app.url);
  });
  afterAll(async () => {
    // A failed run must not leave `svc login` polling.
    if (child && child.exitCode === null) child.kill();
    await browser?.close();
    await app?.close();
    await user?.remove();
  });

  it('svc login prints a code and an address; signing in and approving there stores a token svc whoami uses', async () => {
    const login = (child = user.spawn(['login', '--no-browser', '--json']));
    const result = finished(login);
    // What a person reads on their terminal: the address to open and the code to type.
    const printed = await new Promise<{ url: string; code: string }>((resolve, reject) => {
      let seen = '';
      login.stderr!.on('data', (chunk) => {
        seen += chunk;
        const match = /open (\S+) and enter the code ([A-Z0-9]{8})/.exec(seen);
        if (match) resolve({ url: match[1], code: match[2] });
      });
      login.on('close', () => reject(new Error(`svc login ended before printing a code:\n${seen}`)));
    });
    expect(printed.url).toBe(`${app.url}/device`);

    const email = `cli-browser-${randomUUID()}@example.com`;
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(printed.url);
    await signInLocally(page, email);
    await page.waitForURL(/\/device$/);
    await page.getByLabel('Code').fill(printed.code);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.getByText('your device is signed in').waitFor();
    await screenshot(page, 'cli-login-approved');
    await context.close();

    // The CLI's own poll picks the approval up, stores the token and says who signed in.
    const loggedIn = await result;
    expect({ code: loggedIn.code, stderr: loggedIn.stderr }).toEqual({ code: 0, stderr: expect.any(String) });
    expect(loggedIn.json()).toEqual({
      ok: true,
      user: expect.objectContaining({ email }),
      credentialsPath: expect.stringContaining(user.configDir),
    });

    // A later command uses the stored token.
    const whoami = await user.run(['whoami', '--json']);
    expect(whoami.code).toBe(0);
    expect(whoami.json()).toEqual({ user: expect.objectContaining({ email }), tokenSource: 'credentials file' });
  });
});
