import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import * as path from 'node:path';
import { EventStore } from '../../src/event-store/event-store';
import { DeviceCodesReader } from '../../src/modules/auth/read-models/device-codes.reader';
import { Caller, newCaller } from '../support/accounts';
import { startTestApp, TestApp } from '../support/app';
import { CatalogSeed, SeedVendor } from '../support/catalog-seed';
import { CLI_BIN, CliUser, finished } from '../support/cli';
import { json } from '../support/http';

describe('svc CLI: sign-in, tokens and the catalog', () => {
  let app: TestApp;
  let seed: CatalogSeed;
  let vendor: SeedVendor;
  let approver: Caller;
  let user: CliUser;
  const words = `cli${randomUUID().slice(0, 8)}`;

  beforeAll(async () => {
    app = await startTestApp({ env: { WEB_URL: 'https://web.example.com' } });
    seed = await CatalogSeed.for(app);
    vendor = await seed.vendor(`cli-${randomUUID().slice(0, 8)}`, { displayName: 'CLI Vendor', verified: true });
    await seed.listing({ vendor, slug: 'alpha', title: `Alpha ${words}`, priceCents: 0, tags: ['lint'], targets: ['cursor'] });
    await seed.listing({ vendor, slug: 'beta', title: `Beta ${words}`, priceCents: 1500, type: 'rule' });
    approver = await newCaller(app);
  });
  beforeEach(async () => {
    user = await CliUser.create(app.url);
  });
  afterEach(() => user?.remove());
  afterAll(() => app?.close());

  let lastUserCode = '';
  /** Runs `svc login`, reads the code it prints and approves (or denies) it as the web page would. */
  async function login(as: Caller, args: string[] = ['--json'], decision: 'approve' | 'deny' = 'approve') {
    const child = user.spawn(['login', ...args]);
    const result = finished(child);
    const userCode = await new Promise<string>((resolve, reject) => {
      let seen = '';
      child.stderr!.on('data', (chunk) => {
        seen += chunk;
        const match = /code: ([A-Z0-9]{8})/.exec(seen);
        if (match) resolve(match[1]);
      });
      child.on('close', () => reject(new Error(`login ended before printing a code:\n${seen}`)));
    });
    lastUserCode = userCode;
    expect((await as.call('POST', `/v1/auth/device/${decision}`, { userCode })).status).toBe(200);
    return result;
  }

  it('logs in through the device flow, stores the token 0600, whoami uses it, logout revokes and deletes it', async () => {
    const loggedIn = await login(approver);
    expect(loggedIn.code).toBe(0);
    expect(loggedIn.stderr).toContain('https://web.example.com/device');
    // It named itself, so the device page can say which client on which machine asks.
    const stream = await app.server.app.get(DeviceCodesReader).streamForUserCode(lastUserCode);
    const [issued] = await app.server.app.get(EventStore).readStream(stream!);
    const { version } = require('../../package.json') as { version: string };
    expect(issued.data.clientName).toBe(`svc ${version} on ${hostname()}`.slice(0, 64).trim());
    const answer = loggedIn.json();
    expect(answer).toEqual({
      ok: true,
      user: expect.objectContaining({ id: approver.userId }),
      credentialsPath: expect.any(String),
    });
    const file = path.join(user.configDir, 'svc', 'credentials.json');
    expect(answer.credentialsPath).toBe(file);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const { token } = require(file) as { token: string };
    expect(token).toMatch(/^svc_/);

    const whoami = await user.run(['whoami', '--json']);
    expect(whoami.code).toBe(0);
    expect(whoami.json()).toEqual({ user: expect.objectContaining({ id: approver.userId }), tokenSource: 'credentials file' });
    const human = await user.run(['whoami']);
    expect(human.stdout).toMatch(/token from\s+credentials file/);

    const logout = await user.run(['logout', '--json']);
    expect(logout.code).toBe(0);
    expect(logout.json()).toEqual({ ok: true, revoked: true, deleted: true });
    await expect(stat(file)).rejects.toThrow(/ENOENT/);
    // Revoked on the server, not only forgotten here.
    const afterwards = await fetch(`${app.url}/v1/users/me`, { headers: { authorization: `Bearer ${token}` } });
    expect(afterwards.status).toBe(401);

    const signedOut = await user.run(['whoami', '--json']);
    expect(signedOut.code).toBe(4);
    expect(signedOut.json().error).toMatch(/Not signed in/);
  });

  it('a sign-in denied in the browser ends the login at the next poll, exit code 1, nothing stored', async () => {
    const denied = await login(approver, ['--json'], 'deny');
    expect(denied.code).toBe(1);
    expect(denied.json().error).toMatch(/denied/);
    await expect(stat(path.join(user.configDir, 'svc', 'credentials.json'))).rejects.toThrow(/ENOENT/);
  });

  it('SVC_TOKEN wins over the credentials file', async () => {
    expect((await login(approver)).code).toBe(0);
    const other = await newCaller(app);
    const viaEnv = await user.run(['whoami', '--json'], { env: { SVC_TOKEN: other.token } });
    expect(viaEnv.code).toBe(0);
    expect(viaEnv.json()).toEqual({ user: expect.objectContaining({ id: other.userId }), tokenSource: 'SVC_TOKEN' });

    // The stored token belongs to the server that issued it: another SVC_API_URL never receives it.
    const elsewhere = await user.run(['whoami', '--json'], { env: { SVC_API_URL: 'http://127.0.0.1:1' } });
    expect(elsewhere.code).toBe(4);

    const revoked = await user.run(['whoami', '--json'], { env: { SVC_TOKEN: 'svc_not-a-real-token' } });
    expect(revoked.code).toBe(4);
    expect(revoked.json()).toEqual(expect.objectContaining({ status: 401, error: expect.any(String) }));
  });

  it('searches with filters, as JSON and as a table', async () => {
    const all = await user.run(['search', words, '--json']);
    expect(all.code).toBe(0);
    const page = all.json();
    expect(page.results.map((r: { slug: string }) => r.slug).sort()).toEqual(['alpha', 'beta']);

    const free = await user.run(['search', words, '--free', '--target', 'cursor', '--tag', 'lint', '--json']);
    expect(free.json().results).toEqual([expect.objectContaining({ vendorSlug: vendor.slug, slug: 'alpha', priceCents: 0 })]);

    const rules = await user.run(['search', words, '--type', 'rule', '--limit', '1', '--json']);
    expect(rules.json()).toEqual(expect.objectContaining({ perPage: 1, results: [expect.objectContaining({ slug: 'beta' })] }));

    const table = await user.run(['search', words]);
    expect(table.code).toBe(0);
    expect(table.stdout).toContain(`${vendor.slug}/alpha`);
    expect(table.stdout).toContain('15.00 USD');
  });

  it('shows a package with its versions and vendor verification', async () => {
    const info = await user.run(['info', `${vendor.slug}/beta`, '--json']);
    expect(info.code).toBe(0);
    const { listing, releases } = info.json();
    expect(listing).toEqual(
      expect.objectContaining({ slug: 'beta', priceCents: 1500, vendor: expect.objectContaining({ verified: true }) }),
    );
    expect(releases).toEqual([expect.objectContaining({ version: '1.0.0', archiveSha256: expect.any(String) })]);
    const human = await user.run(['info', `${vendor.slug}/beta`]);
    expect(human.stdout).toMatch(/vendor\s+CLI Vendor .*verified/);
    expect(human.stdout).toMatch(/scan\s+passed/);
    expect(human.stdout).toMatch(/signed\s+no/);

    const missing = await user.run(['info', `${vendor.slug}/nope`, '--json']);
    expect(missing.code).toBe(1);
    expect(missing.json()).toEqual(expect.objectContaining({ status: 404, error: expect.any(String) }));
  });

  it('exits 2 on usage errors, printing nothing on stdout', async () => {
    const bad = await user.run(['search', '--sort', 'sideways', '--json']);
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toMatch(/sort/);
    expect((await user.run(['info', 'not-a-package'])).code).toBe(2);
    expect((await user.run(['frobnicate'])).code).toBe(2);
    // The shipped bin (built by `npm ci` through prepare) runs the same program.
    const shipped = await finished(spawn(process.execPath, [CLI_BIN, '--version'], { stdio: ['ignore', 'pipe', 'pipe'] }));
    expect(shipped).toEqual(expect.objectContaining({ code: 0, stdout: `${require('../../package.json').version}\n` }));
    // The API itself is untouched by a usage error.
    expect((await json(await fetch(`${app.url}/health`))).ok).toBe(true);
  });
});
