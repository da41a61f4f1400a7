import { randomUUID } from 'node:crypto';
import { CommandBus } from '@nestjs/cqrs';
import { IssuedToken, IssueTokenCommand } from '../../src/modules/auth/commands/issue-token/issue-token.command';
import { RevokeTokenCommand } from '../../src/modules/auth/commands/revoke-token/revoke-token.command';
import { generateApiToken, Scope, SCOPES } from '../../src/modules/auth/domain/api-token';
import { registerUser } from '../support/accounts';
import { startTestApp, TestApp } from '../support/app';
import { openPool } from '../support/database';
import { eventually } from '../support/eventually';
import { json } from '../support/http';
import { AccessFeatureModule } from '../support/whoami-feature';

describe('token guard', () => {
  let app: TestApp;
  let commands: CommandBus;

  beforeAll(async () => {
    app = await startTestApp({ features: [AccessFeatureModule] });
    commands = app.server.app.get(CommandBus);
  });
  afterAll(async () => app?.close());

  const issue = (userId: string, scopes: Scope[], expiresInDays?: number): Promise<IssuedToken> =>
    commands.execute(new IssueTokenCommand(userId, 'test', scopes, 'admin', { expiresInDays }));
  const get = (path: string, token?: string) =>
    fetch(`${app.url}${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  // Commands outside a request do not wait for projections, and the guard reads one: so tokens are awaited.

  it('answers 401 with a message for a missing, malformed, mistyped or unknown token', async () => {
    const { token } = await issue(await registerUser(app), [...SCOPES]);
    const mistyped = token.slice(0, -1) + (token.endsWith('a') ? 'b' : 'a');
    for (const credential of [undefined, 'not-a-token', mistyped, generateApiToken()]) {
      const response = await get('/test/access/any', credential);
      expect(response.status).toBe(401);
      expect(await json(response)).toEqual({ message: expect.any(String) });
    }
    const basic = await fetch(`${app.url}/test/access/any`, { headers: { authorization: `Basic ${token}` } });
    expect(basic.status).toBe(401);
  });

  it('lets a valid token through, and fails closed on a route with no access decorator', async () => {
    const userId = await registerUser(app);
    const { token, tokenId } = await issue(userId, ['read']);
    await eventually(async () => (await get('/test/access/any', token)).status === 200);
    expect(await json(await get('/test/access/any', token))).toEqual({
      userId,
      tokenId,
      tokenName: 'test',
      scopes: ['read'],
      policyId: null,
      expiresAt: null,
    });
    expect((await get('/test/access/undecorated')).status).toBe(401);
    expect((await get('/test/access/undecorated', token)).status).toBe(200);
  });

  it('allows each scope where it is required and answers 403 elsewhere', async () => {
    for (const scope of SCOPES) {
      const { token } = await issue(await registerUser(app), [scope]);
      await eventually(async () => (await get('/test/access/any', token)).status === 200);
      for (const route of SCOPES) {
        const response = await get(`/test/access/${route}`, token);
        expect({ scope, route, status: response.status }).toEqual({ scope, route, status: route === scope ? 200 : 403 });
        if (route !== scope) expect((await json(response)).message).toMatch(new RegExp(`"${route}" scope`));
      }
    }
  });

  it('refuses a revoked token at once, and an expired one', async () => {
    const userId = await registerUser(app);
    const { token, tokenId } = await issue(userId, [...SCOPES], 30);
    await eventually(async () => (await get('/test/access/any', token)).status === 200);

    await expect(commands.execute(new RevokeTokenCommand(tokenId, randomUUID()))).rejects.toMatchObject({ code: 'not_found' });
    await commands.execute(new RevokeTokenCommand(tokenId, userId));
    await eventually(async () => (await get('/test/access/any', token)).status === 401);
    expect((await json(await get('/test/access/any', token))).message).toMatch(/revoked/);

    const other = await issue(userId, [...SCOPES], 30);
    await eventually(async () => (await get('/test/access/any', other.token)).status === 200);
    const pool = openPool(app.db.url, 1);
    await pool.query("UPDATE api_tokens SET expires_at = now() - interval '1 second' WHERE id = $1", [other.tokenId]);
    await pool.end();
    const expired = await get('/test/access/any', other.token);
    expect(expired.status).toBe(401);
    expect((await json(expired)).message).toMatch(/expired/);
  });
});
