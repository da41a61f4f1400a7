import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { loadConfig } from '../../src/config/app-config';
import { runProjectionsCli } from '../../src/projections/cli/projections-cli';
import { startTestApp, TestApp } from '../support/app';
import { openPool } from '../support/database';
import { eventually } from '../support/eventually';
import { json } from '../support/http';

const root = path.resolve(__dirname, '../..');
const run = promisify(execFile);

describe('users and operator commands', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => app?.close());

  const admin = async (...args: string[]) => {
    const { stdout } = await run(process.execPath, [path.join(root, 'dist/admin.js'), ...args], {
      cwd: root,
      env: { PATH: process.env.PATH, DATABASE_URL: app.db.url },
    });
    return stdout;
  };
  const call = (method: string, route: string, token: string, body?: unknown) =>
    fetch(`${app.url}${route}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
  const untilAuthenticated = (token: string) =>
    eventually(async () => (await call('GET', '/v1/users/me', token)).status !== 401, {
      intervalMs: 25,
      description: 'the new token to authenticate',
    });

  it('creates users and first tokens from the command line, printing only the id or the token', async () => {
    const email = `grace-${randomUUID()}@example.com`;
    const userId = (await admin('user', 'create', '--email', email, '--name', 'Grace Hopper')).trim();
    expect(userId).toMatch(/^[0-9a-f-]{36}$/);

    const stdout = await admin('token', 'create', '--email', email, '--scopes', 'read,purchase', '--name', 'ops');
    expect(stdout).toMatch(/^svc_[0-9A-Za-z]{34}\n$/);
    const token = stdout.trim();
    await untilAuthenticated(token);
    const me = await json(await call('GET', '/v1/users/me', token));
    expect(me).toEqual({
      user: { id: userId, email, name: 'Grace Hopper', avatarUrl: null, emailVerified: false, createdAt: expect.any(String) },
    });
    const tokens = await json(await call('GET', '/v1/auth/tokens', token));
    expect(tokens.tokens[0]).toMatchObject({ name: 'ops', scopes: ['read', 'purchase'] });

    await expect(admin('user', 'create', '--email', email)).rejects.toMatchObject({ code: 2 });
  });

  it('updates the profile with validation', async () => {
    const email = `linus-${randomUUID()}@example.com`;
    const token = (await admin('token', 'create', '--email', email)).trim();
    await untilAuthenticated(token);
    const updated = await call('PATCH', '/v1/users/me', token, { name: 'Linus', avatarUrl: 'https://img.example.com/l.png' });
    expect(updated.status).toBe(200);
    expect((await json(updated)).user).toMatchObject({ email, name: 'Linus', avatarUrl: 'https://img.example.com/l.png' });
    for (const bad of [
      { name: '' },
      { name: 'x'.repeat(101) },
      { avatarUrl: 'http://img.example.com/l.png' },
      { avatarUrl: 'not a url' },
    ]) {
      const response = await call('PATCH', '/v1/users/me', token, bad);
      expect(response.status).toBe(400);
      expect((await json(response)).message).toMatch(Object.keys(bad)[0]);
    }
  });

  it('deletes an account: tokens revoked, personal data gone from every table even after rebuilding every projection', async () => {
    const email = `ada-${randomUUID()}@example.com`;
    const name = `Ada ${randomUUID()}`;
    await admin('user', 'create', '--email', email, '--name', name);
    const first = (await admin('token', 'create', '--email', email)).trim();
    const second = (await admin('token', 'create', '--email', email, '--name', 'second')).trim();
    await untilAuthenticated(first);
    await untilAuthenticated(second);
    await call('PATCH', '/v1/users/me', first, { avatarUrl: 'https://img.example.com/ada.png' });

    const deleted = await call('DELETE', '/v1/users/me', first);
    expect(deleted.status).toBe(200);
    expect(await json(deleted)).toEqual({ ok: true });
    expect((await call('GET', '/v1/users/me', first)).status).toBe(401);
    expect((await call('GET', '/v1/users/me', second)).status).toBe(401);

    const lines: string[] = [];
    expect(
      await runProjectionsCli(['rebuild'], loadConfig({ DATABASE_URL: app.db.url, LOG_LEVEL: 'silent' }), (l) => lines.push(l)),
    ).toBe(0);

    const pool = openPool(app.db.url, 1);
    const { rows: tables } = await pool.query(
      `SELECT format('%I.%I', schemaname, tablename) AS name FROM pg_tables WHERE schemaname NOT IN ('pg_catalog', 'information_schema')`,
    );
    const found: string[] = [];
    for (const { name: table } of tables) {
      const { rows } = await pool.query(
        `SELECT count(*)::int AS hits FROM ${table} t WHERE t::text ILIKE $1 OR t::text ILIKE $2 OR t::text ILIKE $3`,
        [`%${email}%`, `%${name}%`, '%img.example.com/ada.png%'],
      );
      if (rows[0].hits > 0) found.push(table);
    }
    await pool.end();
    expect(found).toEqual([]);

    // The address is free again.
    expect((await admin('user', 'create', '--email', email)).trim()).toMatch(/^[0-9a-f-]{36}$/);
  });
});
