import { randomUUID } from 'node:crypto';
import { CommandBus } from '@nestjs/cqrs';
import { IssuedToken, IssueTokenCommand } from '../../src/modules/auth/commands/issue-token/issue-token.command';
import { isWellFormedApiToken, SCOPES } from '../../src/modules/auth/domain/api-token';
import { loadDeviceCode } from '../../src/modules/auth/domain/device-code-stream';
import { DeviceCodesReader } from '../../src/modules/auth/read-models/device-codes.reader';
import { EventStore } from '../../src/event-store/event-store';
import { ManualClock } from '../../src/platform/clock/clock';
import { registerUser } from '../support/accounts';
import { startTestApp, TestApp } from '../support/app';
import { openPool } from '../support/database';
import { eventually } from '../support/eventually';
import { json } from '../support/http';

describe('device authorization flow', () => {
  let app: TestApp;
  let approver: IssuedToken;
  let approverId: string;
  const clock = new ManualClock(new Date());

  beforeAll(async () => {
    app = await startTestApp({ clock, env: { WEB_URL: 'https://web.example.com' } });
    approverId = await registerUser(app, `approver-${randomUUID()}@example.com`, 'Approver');
    approver = await app.server.app.get(CommandBus).execute(new IssueTokenCommand(approverId, 'browser', [...SCOPES], 'admin'));
    await eventually(async () => (await post('/v1/auth/tokens', undefined, approver.token)).status !== 401, {
      intervalMs: 25,
      description: "the approver's token to authenticate",
    });
  });
  afterAll(async () => app?.close());

  function post(path: string, body?: unknown, token?: string) {
    return fetch(`${app.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body ?? {}),
    });
  }
  /** Polls as a well-behaved client: one interval after the last poll. */
  const poll = (deviceCode: string) => {
    clock.advance(5_000);
    return post('/v1/auth/device/poll', { deviceCode });
  };

  it('signs a CLI in: start, approve as another user, poll hands the token out once, it works, then revoke', async () => {
    const started = await post('/v1/auth/device/start');
    expect(started.status).toBe(200);
    const start = await json(started);
    expect(start).toEqual({
      deviceCode: expect.any(String),
      userCode: expect.stringMatching(/^[BCDFGHJKMNPQRSTVWXZ2-9]{8}$/),
      verificationUri: 'https://web.example.com/device',
      expiresIn: 900,
      interval: 5,
    });
    expect(start.deviceCode.length).toBeGreaterThanOrEqual(40);

    expect(await json(await poll(start.deviceCode))).toEqual({ status: 'authorization_pending' });
    // Faster than the interval: slow down.
    const eager = await post('/v1/auth/device/poll', { deviceCode: start.deviceCode });
    expect(eager.status).toBe(429);
    expect((await json(eager)).message).toMatch(/slow_down/);

    const typed = `${start.userCode.slice(0, 4)}-${start.userCode.slice(4)}`.toLowerCase();
    const approved = await post('/v1/auth/device/approve', { userCode: typed }, approver.token);
    expect(approved.status).toBe(200);
    expect(await json(approved)).toEqual({ ok: true });
    expect((await post('/v1/auth/device/approve', { userCode: start.userCode }, approver.token)).status).toBe(409);
    // Approved is final: it can no longer be denied.
    const lateDenial = await post('/v1/auth/device/deny', { userCode: start.userCode }, approver.token);
    expect(lateDenial.status).toBe(409);
    expect((await json(lateDenial)).message).toMatch(/already been approved/);

    const first = await json(await poll(start.deviceCode));
    expect(first).toEqual({ status: 'approved', token: expect.any(String), tokenType: 'Bearer', expiresIn: 90 * 24 * 3600 });
    expect(isWellFormedApiToken(first.token)).toBe(true);
    const again = await poll(start.deviceCode);
    expect(again.status).toBe(400);
    expect(JSON.stringify(await json(again))).not.toContain(first.token);

    // The token belongs to the approving user and carries all four scopes.
    const me = await json(await fetch(`${app.url}/v1/users/me`, { headers: { authorization: `Bearer ${first.token}` } }));
    expect(me.user).toMatchObject({ id: approverId, name: 'Approver' });
    const list = await json(await fetch(`${app.url}/v1/auth/tokens`, { headers: { authorization: `Bearer ${first.token}` } }));
    const mine = list.tokens.find((t: { name: string }) => t.name === 'device sign-in');
    expect(mine.scopes).toEqual([...SCOPES]);
    expect(list.tokens.map((t: { id: string }) => t.id)).toContain(approver.tokenId);

    expect((await post('/v1/auth/token/revoke', undefined, first.token)).status).toBe(200);
    expect((await fetch(`${app.url}/v1/auth/tokens`, { headers: { authorization: `Bearer ${first.token}` } })).status).toBe(401);

    // Server-side audit of all of it, failed attempt included; no route serves it, and no secret is in it.
    const pool = openPool(app.db.url, 1);
    const audited = ['token_issued', 'device_approved', 'device_sign_in', 'token_revoked', 'authentication_failed'];
    const kinds = await eventually(
      async () => {
        const { rows } = await pool.query('SELECT kind FROM auth_audit ORDER BY id');
        const kinds: string[] = rows.map((r) => r.kind);
        return audited.every((k) => kinds.includes(k)) && kinds;
      },
      { intervalMs: 25, description: 'every step in the audit' },
    );
    expect(new Set(kinds)).toEqual(new Set(audited));
    const { rows } = await pool.query('SELECT t::text AS row FROM auth_audit t');
    await pool.end();
    expect(rows.map((r) => r.row).join('\n')).not.toContain(first.token);
    const document = await json(await fetch(`${app.url}/docs/json`));
    // The only audit route is the public package audits; the authentication log has none.
    expect(Object.keys(document.paths).filter((path) => /audit/.test(path))).toEqual(['/v1/audits']);
  });

  it('records a denial: polls answer denied, and the code can then never be approved', async () => {
    const start = await json(await post('/v1/auth/device/start'));
    const typed = `${start.userCode.slice(0, 4)}-${start.userCode.slice(4)}`.toLowerCase();
    const denied = await post('/v1/auth/device/deny', { userCode: typed }, approver.token);
    expect(denied.status).toBe(200);
    expect(await json(denied)).toEqual({ ok: true });
    expect(await json(await poll(start.deviceCode))).toEqual({ status: 'denied' });

    const approveAfter = await post('/v1/auth/device/approve', { userCode: start.userCode }, approver.token);
    expect(approveAfter.status).toBe(409);
    expect(await json(approveAfter)).toEqual({ message: expect.stringMatching(/denied/) });
    const denyAgain = await post('/v1/auth/device/deny', { userCode: start.userCode }, approver.token);
    expect(denyAgain.status).toBe(409);
    expect((await json(denyAgain)).message).toMatch(/already denied/);
    // Still denied, never a token.
    expect(await json(await poll(start.deviceCode))).toEqual({ status: 'denied' });

    const anonymous = await post('/v1/auth/device/deny', { userCode: start.userCode });
    expect(anonymous.status).toBe(401);
    const noCode = await post('/v1/auth/device/deny', {}, approver.token);
    expect(noCode.status).toBe(400);
    expect(await json(noCode)).toEqual({ message: expect.any(String) });
    expect((await post('/v1/auth/device/deny', { userCode: 'BCDF-GHJK' }, approver.token)).status).toBe(404);

    // The denial is audited server-side, naming who denied.
    const pool = openPool(app.db.url, 1);
    const rows = await eventually(
      async () => {
        const { rows } = await pool.query(`SELECT user_id FROM auth_audit WHERE kind = 'device_denied'`);
        return rows.length > 0 && rows;
      },
      { intervalMs: 25, description: 'the denial in the audit' },
    );
    await pool.end();
    expect(rows).toEqual([{ user_id: approverId }]);
  });

  it('never hands out more than the approving token holds: its scopes only, and no longer life', async () => {
    const readOnly: IssuedToken = await app.server.app
      .get(CommandBus)
      .execute(new IssueTokenCommand(approverId, 'read only', ['read'], 'admin', { expiresInDays: 1 }));
    const start = await json(await post('/v1/auth/device/start'));
    let approved = await post('/v1/auth/device/approve', { userCode: start.userCode }, readOnly.token);
    for (let i = 0; approved.status === 401 && i < 200; i++) {
      await new Promise((r) => setTimeout(r, 25)); // the token projection has not applied the new token yet
      approved = await post('/v1/auth/device/approve', { userCode: start.userCode }, readOnly.token);
    }
    expect(approved.status).toBe(200);
    const signedIn = await json(await poll(start.deviceCode));
    expect(signedIn).toMatchObject({ status: 'approved', token: expect.any(String) });
    expect(signedIn.expiresIn).toBeLessThanOrEqual(24 * 60 * 60);

    const tokens = await json(
      await fetch(`${app.url}/v1/auth/tokens`, { headers: { authorization: `Bearer ${signedIn.token}` } }),
    );
    const device = tokens.tokens.find(
      (t: { name: string; scopes: string[] }) => t.name === 'device sign-in' && t.scopes.length === 1,
    );
    expect(device).toMatchObject({ scopes: ['read'], expiresAt: readOnly.expiresAt });
    // A sell route stays closed to it.
    const sell = await fetch(`${app.url}/v1/vendor/profile`, { headers: { authorization: `Bearer ${signedIn.token}` } });
    expect(sell.status).toBe(403);
  });

  it('expires after 900 seconds by the clock: polls answer expired and approval is refused', async () => {
    // Two codes started together: one polled 899 s later, the other at 900 s.
    const start = await json(await post('/v1/auth/device/start'));
    const other = await json(await post('/v1/auth/device/start'));
    clock.advance(894_000); // poll() adds its 5 s interval
    expect(await json(await poll(start.deviceCode))).toEqual({ status: 'authorization_pending' });
    clock.advance(1_000);
    expect(await json(await post('/v1/auth/device/poll', { deviceCode: other.deviceCode }))).toEqual({ status: 'expired' });
    const late = await post('/v1/auth/device/approve', { userCode: start.userCode }, approver.token);
    expect(late.status).toBe(422);
    expect((await json(late)).message).toMatch(/expired/);
    expect((await post('/v1/auth/device/deny', { userCode: start.userCode }, approver.token)).status).toBe(422);
  });

  it('answers unknown and malformed codes with a clear 4xx', async () => {
    const unknownDevice = await poll('no-such-device-code');
    expect(unknownDevice.status).toBe(404);
    expect(await json(unknownDevice)).toEqual({ message: expect.any(String) });
    expect((await post('/v1/auth/device/approve', { userCode: 'BCDF-GHJK' }, approver.token)).status).toBe(404);
    expect((await post('/v1/auth/device/approve', { userCode: 'O0O0-I1I1' }, approver.token)).status).toBe(400);
    expect((await post('/v1/auth/device/approve', { userCode: 'BCDF-GHJK' })).status).toBe(401);
    expect((await post('/v1/auth/device/poll', {})).status).toBe(400);
  });

  it('stores the name a client gives at start with its code; a bad name is a 400, none at all is fine', async () => {
    const deviceCodes = app.server.app.get(DeviceCodesReader);
    const store = app.server.app.get(EventStore);
    const clientNameOf = async (userCode: string) =>
      (await loadDeviceCode(store, (await deviceCodes.streamForUserCode(userCode))!)).state;

    const named = await json(await post('/v1/auth/device/start', { clientName: '  svc 1.2.3 on build-box  ' }));
    expect(await clientNameOf(named.userCode)).toMatchObject({ status: 'pending', clientName: 'svc 1.2.3 on build-box' });
    // No body at all, as RFC 8628 clients send: an unnamed client.
    const bare = await json(await fetch(`${app.url}/v1/auth/device/start`, { method: 'POST' }));
    expect(await clientNameOf(bare.userCode)).toMatchObject({ status: 'pending', clientName: null });

    for (const clientName of ['', '   ', 'x'.repeat(65), 'line\nbreak', 'esc \u001b[31m', 42, null, ['svc']]) {
      const refused = await post('/v1/auth/device/start', { clientName });
      expect([clientName, refused.status]).toEqual([clientName, 400]);
      expect(await json(refused)).toEqual({ message: expect.stringContaining('clientName') });
    }
    expect((await post('/v1/auth/device/start', { clientName: '😀'.repeat(64) })).status).toBe(200);

    // A code issued before clients could name themselves (schema v1) reads as an unnamed client.
    const oldStream = `device-${randomUUID()}`;
    const issuedAt = new Date();
    await store.append(
      oldStream,
      [
        {
          type: 'DeviceCodeIssued',
          data: {
            userCode: 'MNPQRSTV', // not the code the rate-limit test below guesses
            scopes: ['read'],
            issuedAt: issuedAt.toISOString(),
            expiresAt: issuedAt.toISOString(),
            interval: 5,
          },
          metadata: { schemaVersion: 1 },
        },
      ],
      'no_stream',
    );
    expect((await loadDeviceCode(store, oldStream)).state).toMatchObject({ status: 'pending', clientName: null });
  });

  it('rate limits guessing at user codes', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++)
      statuses.push((await post('/v1/auth/device/approve', { userCode: 'BCDF-GHJK' }, approver.token)).status);
    expect(statuses).toContain(429);
    expect(statuses.filter((status) => status !== 429 && status !== 404)).toEqual([]);
  });
});
