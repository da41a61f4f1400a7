import { randomUUID } from 'node:crypto';
import { CommandBus } from '@nestjs/cqrs';
import { IssuedToken, IssueTokenCommand } from '../../src/modules/auth/commands/issue-token/issue-token.command';
import { isWellFormedApiToken, SCOPES } from '../../src/modules/auth/domain/api-token';
import { registerUser } from '../support/accounts';
import { startTestApp, TestApp } from '../support/app';
import { eventually } from '../support/eventually';
import { json } from '../support/http';

describe('API token endpoints', () => {
  let app: TestApp;
  let owner: IssuedToken;
  let userId: string;

  beforeAll(async () => {
    app = await startTestApp();
    const commands = app.server.app.get(CommandBus);
    userId = await registerUser(app);
    owner = await commands.execute(new IssueTokenCommand(userId, 'first', [...SCOPES], 'admin'));
    // Outside a request nothing waits for the projection; wait here once.
    await eventually(async () => (await call('GET', '/v1/auth/tokens', owner.token)).status === 200, {
      intervalMs: 25,
      description: "the owner's token to authenticate",
    });
  });
  afterAll(async () => app?.close());

  function call(method: string, path: string, token?: string, body?: unknown) {
    return fetch(`${app.url}${path}`, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    });
  }

  it('creates a restricted token shown once, lists it newest first, and it works at once', async () => {
    const created = await call('POST', '/v1/auth/tokens', owner.token, { name: 'ci', scopes: ['read'], expiresInDays: 7 });
    expect(created.status).toBe(201);
    const body = await json(created);
    expect(isWellFormedApiToken(body.token)).toBe(true);
    expect(body).toMatchObject({
      name: 'ci',
      scopes: ['read'],
      policyId: null,
      policyName: null,
      revokedAt: null,
      lastUsedAt: null,
    });

    const list = await json(await call('GET', '/v1/auth/tokens', owner.token));
    expect(list.tokens.map((t: { id: string }) => t.id)).toEqual([body.id, owner.tokenId]);
    expect(JSON.stringify(list)).not.toContain(body.token);
    expect(Object.keys(list.tokens[0]).sort()).toEqual(
      ['createdAt', 'expiresAt', 'id', 'lastUsedAt', 'name', 'policyId', 'policyName', 'revokedAt', 'scopes'].sort(),
    );
    // Read your writes: the new token authenticates on the very next request.
    expect((await call('GET', '/v1/auth/tokens', body.token)).status).toBe(200);
  });

  it('never lets a token mint a child that outlives it', async () => {
    const commands = app.server.app.get(CommandBus);
    const shortLived: IssuedToken = await commands.execute(
      new IssueTokenCommand(userId, 'one day', [...SCOPES], 'admin', { expiresInDays: 1 }),
    );
    let forever = await call('POST', '/v1/auth/tokens', shortLived.token, { name: 'forever', scopes: ['read'] });
    for (let i = 0; forever.status === 401 && i < 200; i++) {
      await new Promise((r) => setTimeout(r, 25)); // the token projection has not applied the new token yet
      forever = await call('POST', '/v1/auth/tokens', shortLived.token, { name: 'forever', scopes: ['read'] });
    }
    expect(forever.status).toBe(201);
    expect((await json(forever)).expiresAt).toBe(shortLived.expiresAt);
    const longer = await call('POST', '/v1/auth/tokens', shortLived.token, {
      name: 'a month',
      scopes: ['read'],
      expiresInDays: 30,
    });
    expect((await json(longer)).expiresAt).toBe(shortLived.expiresAt);
    const shorter = await json(
      await call('POST', '/v1/auth/tokens', owner.token, { name: 'an hour less', scopes: ['read'], expiresInDays: 1 }),
    );
    expect(shorter.expiresAt).not.toBeNull();
  });

  it('refuses scopes the calling token lacks, bad input, and unknown policies', async () => {
    const reader = await json(await call('POST', '/v1/auth/tokens', owner.token, { name: 'reader', scopes: ['read'] }));
    const escalate = await call('POST', '/v1/auth/tokens', reader.token, { name: 'x', scopes: ['read', 'sell'] });
    expect(escalate.status).toBe(403);
    expect((await json(escalate)).message).toMatch(/sell/);
    for (const bad of [
      { name: '', scopes: ['read'] },
      { name: 'x', scopes: [] },
      { name: 'x', scopes: ['admin'] },
      { name: 'x', scopes: ['read'], expiresInDays: 0 },
    ]) {
      const response = await call('POST', '/v1/auth/tokens', owner.token, bad);
      expect(response.status).toBe(400);
    }
    const policy = await call('POST', '/v1/auth/tokens', owner.token, { name: 'x', scopes: ['read'], policyId: randomUUID() });
    expect(policy.status).toBe(422);
  });

  it("revokes one of the caller's tokens by id; someone else's id is 404", async () => {
    const victim = await json(await call('POST', '/v1/auth/tokens', owner.token, { name: 'victim', scopes: ['read'] }));
    const stranger = await app.server.app
      .get(CommandBus)
      .execute(new IssueTokenCommand(await registerUser(app), 'stranger', ['read'], 'admin'));
    expect((await call('DELETE', `/v1/auth/tokens/${stranger.tokenId}`, owner.token)).status).toBe(404);
    expect((await call('DELETE', '/v1/auth/tokens/not-a-uuid', owner.token)).status).toBe(404);

    const revoked = await call('DELETE', `/v1/auth/tokens/${victim.id}`, owner.token);
    expect(revoked.status).toBe(200);
    expect(await json(revoked)).toEqual({ ok: true });
    expect((await call('GET', '/v1/auth/tokens', victim.token)).status).toBe(401);
    const ids = (await json(await call('GET', '/v1/auth/tokens', owner.token))).tokens.map((t: { id: string }) => t.id);
    expect(ids).not.toContain(victim.id);
  });

  it('revokes the presented token', async () => {
    const spare = await json(await call('POST', '/v1/auth/tokens', owner.token, { name: 'spare', scopes: ['read'] }));
    const response = await call('POST', '/v1/auth/token/revoke', spare.token);
    expect(response.status).toBe(200);
    expect(await json(response)).toEqual({ ok: true });
    expect((await call('GET', '/v1/auth/tokens', spare.token)).status).toBe(401);
    expect((await call('GET', '/v1/auth/tokens', owner.token)).status).toBe(200);
  });

  it('keeps lastUsedAt current (recorded at most once a minute per token)', async () => {
    const lastUsedAt: string = await eventually(
      async () => {
        const { tokens } = await json(await call('GET', '/v1/auth/tokens', owner.token));
        return tokens.find((t: { id: string }) => t.id === owner.tokenId).lastUsedAt ?? false;
      },
      { description: 'lastUsedAt to be recorded' },
    );
    expect(Date.now() - Date.parse(lastUsedAt)).toBeLessThan(60_000);
  });

  it('needs a token for every endpoint', async () => {
    for (const [method, path] of [
      ['GET', '/v1/auth/tokens'],
      ['POST', '/v1/auth/tokens'],
      ['POST', '/v1/auth/token/revoke'],
      ['DELETE', `/v1/auth/tokens/${randomUUID()}`],
    ]) {
      expect((await call(method, path)).status).toBe(401);
    }
  });
});
