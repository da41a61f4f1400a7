import { randomUUID } from 'node:crypto';
import { CommandBus } from '@nestjs/cqrs';
import { Browser } from 'playwright-core';
import { DataSource } from 'typeorm';
import { IssuedToken, IssueTokenCommand } from '../../../src/modules/auth/commands/issue-token/issue-token.command';
import { SCOPES } from '../../../src/modules/auth/domain/api-token';
import { EnsureUserCommand } from '../../../src/modules/users/commands/ensure-user/ensure-user.command';
import { ManualClock } from '../../../src/platform/clock/clock';
import { callerFor, eventually } from '../../support/accounts';
import { startTestApp, TestApp } from '../../support/app';
import { WebSessions } from '../../../src/web/sessions/web-sessions';
import { WebSessionsSweeper } from '../../../src/web/sessions/web-sessions.sweeper';
import { freePort, launchBrowser, signInLocally } from '../../support/browser';

describe('web: sessions end after inactivity and with the account', () => {
  const clock = new ManualClock(new Date());
  let app: TestApp;
  let browser: Browser;

  beforeAll(async () => {
    const port = await freePort();
    app = await startTestApp({
      clock,
      env: { PORT: String(port), BASE_URL: `http://127.0.0.1:${port}`, WEB_LOCAL_IDP: 'true', WEB_SESSION_IDLE_MINUTES: '30' },
    });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  const sql = (text: string, params: unknown[] = []) => app.server.app.get(DataSource).query(text, params);

  async function signedInPage(email: string) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${app.url}/wallet`);
    await signInLocally(page, email);
    await page.waitForURL(/\/wallet$/);
    return { context, page };
  }

  it('an idle session expires (its token revoked); activity keeps it alive', async () => {
    const email = `idle-${randomUUID()}@example.com`;
    const { context, page } = await signedInPage(email);
    const [session] = await sql(`SELECT token_id FROM web_sessions s JOIN users u ON u.id = s.user_id WHERE u.email = $1`, [
      email,
    ]);
    clock.advance(20 * 60_000);
    await page.goto(`${app.url}/wallet`);
    await page.getByText('Balance:').waitFor();
    clock.advance(20 * 60_000); // 40 minutes since sign-in, 20 since the last page
    await page.goto(`${app.url}/wallet`);
    await page.getByText('Balance:').waitFor();

    clock.advance(31 * 60_000);
    await page.goto(`${app.url}/wallet`);
    await page.waitForURL(/\/signin\?returnTo=%2Fwallet/);
    expect((await context.cookies()).some((c) => c.name === 'svc_session')).toBe(false);
    await eventually(async () => {
      const [token] = await sql(`SELECT revoked_at FROM api_tokens WHERE id = $1`, [session.token_id]);
      return token.revoked_at !== null;
    });
    await context.close();
  });

  it("a sign-in's API token expires with the session's absolute lifetime (30 days)", async () => {
    const email = `bounded-${randomUUID()}@example.com`;
    const { context } = await signedInPage(email);
    const [token] = await sql(
      `SELECT t.created_at, t.expires_at FROM web_sessions s JOIN users u ON u.id = s.user_id JOIN api_tokens t ON t.id = s.token_id
       WHERE u.email = $1`,
      [email],
    );
    expect(token.expires_at).not.toBeNull();
    expect(new Date(token.expires_at).getTime() - new Date(token.created_at).getTime()).toBe(30 * 24 * 60 * 60_000);
    await context.close();
  });

  it('the sweep ends sessions nobody came back to and revokes their tokens; live ones stay', async () => {
    const commands = app.server.app.get(CommandBus);
    const sessions = app.server.app.get(WebSessions);
    const open = async (email: string) => {
      const userId: string = await commands.execute(new EnsureUserCommand(email));
      const issued: IssuedToken = await commands.execute(
        new IssueTokenCommand(userId, 'web session (local)', [...SCOPES], 'web'),
      );
      const id = await sessions.open(userId, issued.tokenId, issued.token, 'local');
      const caller = callerFor(app, userId, issued.token);
      await eventually(async () => (await caller.call('GET', '/v1/users/me')).status === 200);
      return { id, caller, tokenId: issued.tokenId };
    };
    const abandoned = await open(`abandoned-${randomUUID()}@example.com`);
    clock.advance(20 * 60_000);
    const busy = await open(`busy-${randomUUID()}@example.com`);
    clock.advance(11 * 60_000); // the first idle 31 minutes, the second 11

    await app.server.app.get(WebSessionsSweeper).runOnce();
    const left = await sql(`SELECT token_id FROM web_sessions WHERE token_id = ANY($1)`, [[abandoned.tokenId, busy.tokenId]]);
    expect(left).toEqual([{ token_id: busy.tokenId }]);
    await eventually(async () => (await abandoned.caller.call('GET', '/v1/users/me')).status === 401);
    expect((await busy.caller.call('GET', '/v1/users/me')).status).toBe(200);
    expect((await sessions.resume(busy.id)).session).not.toBeNull();
  });

  it("signing in again ends the browser's previous session and revokes its token", async () => {
    const first = `first-${randomUUID()}@example.com`;
    const second = `second-${randomUUID()}@example.com`;
    const { context, page } = await signedInPage(first);
    const sessionOf = (email: string) =>
      sql(`SELECT s.token_id FROM web_sessions s JOIN users u ON u.id = s.user_id WHERE u.email = $1`, [email]);
    const [old] = await sessionOf(first);
    expect(old).toBeDefined();
    // Keep only the web session's cookie: the local identity provider then asks for an e-mail again.
    const kept = (await context.cookies()).filter((c) => c.name === 'svc_session');
    await context.clearCookies();
    await context.addCookies(kept);
    await page.goto(`${app.url}/auth/local/start?returnTo=%2Fwallet`);
    await page.getByLabel('E-mail').fill(second);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/wallet$/);

    expect(await sessionOf(first)).toEqual([]);
    expect(await sessionOf(second)).toHaveLength(1);
    await eventually(async () => {
      const [token] = await sql(`SELECT revoked_at FROM api_tokens WHERE id = $1`, [old.token_id]);
      return token.revoked_at !== null;
    });
    await context.close();
  });

  it('deleting the account ends its web sessions', async () => {
    const email = `leaving-${randomUUID()}@example.com`;
    const { context, page } = await signedInPage(email);
    const commands = app.server.app.get(CommandBus);
    const userId: string = await commands.execute(new EnsureUserCommand(email));
    const issued: IssuedToken = await commands.execute(new IssueTokenCommand(userId, 'cli', [...SCOPES], 'admin'));
    const cli = callerFor(app, userId, issued.token);
    await eventually(async () => (await cli.call('GET', '/v1/users/me')).status === 200);
    expect((await cli.call('DELETE', '/v1/users/me')).status).toBe(200);
    await eventually(async () => (await sql(`SELECT 1 FROM web_sessions WHERE user_id = $1`, [userId])).length === 0);
    await page.goto(`${app.url}/wallet`);
    await page.waitForURL(/\/signin/);
    await context.close();
  });
});
