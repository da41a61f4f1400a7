import { randomUUID } from 'node:crypto';
import { Browser } from 'playwright-core';
import { eventually, newCaller } from '../../support/accounts';
import { startTestApp, TestApp } from '../../support/app';
import { freePort, launchBrowser, screenshot, signInLocally } from '../../support/browser';
import { FakeSmtp, startFakeSmtp } from '../../support/fake-smtp';
import { json } from '../../support/http';
import { createOrg } from '../../support/orgs';

describe('web: an organization invitation, from the e-mail link to membership', () => {
  let app: TestApp;
  let smtp: FakeSmtp;
  let browser: Browser;

  beforeAll(async () => {
    smtp = await startFakeSmtp();
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    app = await startTestApp({
      env: { PORT: String(port), BASE_URL: url, WEB_URL: url, WEB_LOCAL_IDP: 'true', SMTP_URL: smtp.url },
    });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await smtp?.close();
  });

  const invite = async (email: string) => {
    const owner = await newCaller(app);
    const org = await createOrg(owner);
    const answer = await owner.call('POST', `/v1/orgs/${org.slug}/members`, { email, role: 'member' });
    expect(answer.status).toBe(201);
    const mail = await eventually(() => smtp.received.find((m) => JSON.stringify(m.to ?? '').includes(email)) ?? false, {
      description: `the invitation mail to ${email}`,
    });
    const link = /https?:\/\/\S+\/invitations\/[\w-]+/.exec(mail.text ?? '')![0];
    return { owner, org, link };
  };

  it('the invited person follows the link, signs in with the invited e-mail, accepts, and is a member', async () => {
    const email = `invitee-${randomUUID().slice(0, 8)}@example.com`;
    const { owner, org, link } = await invite(email);
    expect(link.startsWith(app.url)).toBe(true);

    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(link);
    await signInLocally(page, email);
    await page.waitForURL(/\/invitations\//);
    await page.getByRole('button', { name: 'Accept the invitation' }).click();
    await page.getByRole('status').waitFor();
    await screenshot(page, 'invitation-accepted');
    // The organizations page lists the org with its members.
    await page.getByRole('link', { name: 'Your organizations' }).click();
    await page.getByRole('cell', { name: email }).waitFor();
    await page.getByRole('table', { name: `Members of The Team` }).waitFor();

    const { members } = await json(await owner.call('GET', `/v1/orgs/${org.slug}`));
    expect(members.map((m: { email: string; role: string }) => [m.email, m.role])).toContainEqual([email, 'member']);
    // Single use: the same link again is refused.
    await page.goto(link);
    await page.getByRole('button', { name: 'Accept the invitation' }).click();
    await page.getByRole('alert').waitFor();
    await context.close();
  });

  it('someone signed in with another e-mail is refused, and nothing changes', async () => {
    const email = `invitee-${randomUUID().slice(0, 8)}@example.com`;
    const { owner, org, link } = await invite(email);

    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(link);
    await signInLocally(page, `someone-else-${randomUUID().slice(0, 8)}@example.com`);
    await page.waitForURL(/\/invitations\//);
    await page.getByRole('button', { name: 'Accept the invitation' }).click();
    await page.getByRole('alert').waitFor();

    const { members } = await json(await owner.call('GET', `/v1/orgs/${org.slug}`));
    expect(members).toHaveLength(1);
    await context.close();
  });
});
