import { randomBytes, randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { EventStore } from '../../src/event-store/event-store';
import { vendorStreamId } from '../../src/modules/vendors/domain/vendor.decider';
import { ManualClock } from '../../src/platform/clock/clock';
import { VerificationRecheckWorker } from '../../src/modules/vendors/workers/verification-recheck.worker';
import { startTestApp, TestApp } from '../support/app';
import { Caller, eventually, newCaller } from '../support/accounts';
import { json } from '../support/http';
import { FakeDns, startFakeDns } from '../support/fake-dns';
import { FakeGithub, startFakeGithub } from '../support/fake-github';

const CLIENT_ID = 'Iv1.testclient';
const CLIENT_SECRET = 'test-client-secret-0123456789';
const BASE_URL = 'https://market.example.test';
const HOST = 'tools.acme.example';

const uniqueSlug = () => `v-${randomBytes(5).toString('hex')}`;

async function newVendor(app: TestApp, website?: string): Promise<Caller> {
  const vendor = await newCaller(app);
  const body = { slug: uniqueSlug(), displayName: 'Acme Tools', ...(website ? { website } : {}) };
  const created = await vendor.call('POST', '/v1/vendor/profile', body);
  expect(created.status).toBe(201);
  return vendor;
}

async function verification(vendor: Caller) {
  const response = await vendor.call('GET', '/v1/vendor/verification');
  expect(response.status).toBe(200);
  return json(response);
}

const recheck = (app: TestApp) => app.server.app.get(VerificationRecheckWorker).runOnce();

describe('vendor verification', () => {
  let app: TestApp;
  let dns: FakeDns;
  let github: FakeGithub;
  let githubClosed = false;
  const clock = new ManualClock(new Date());

  beforeAll(async () => {
    dns = await startFakeDns();
    github = await startFakeGithub({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET });
    app = await startTestApp({
      clock,
      env: {
        BASE_URL,
        DNS_SERVERS: dns.address,
        GITHUB_CLIENT_ID: CLIENT_ID,
        GITHUB_CLIENT_SECRET: CLIENT_SECRET,
        GITHUB_OAUTH_URL: github.url,
        GITHUB_API_URL: github.url,
      },
    });
  });
  afterAll(async () => {
    await app?.close();
    await dns?.close();
    if (!githubClosed) await github?.close();
  });

  describe('domain', () => {
    afterEach(() => {
      dns.remove(HOST);
      dns.failWith(HOST, null);
    });

    /** A vendor whose website host carries its record, checked and verified. */
    async function domainVerifiedVendor(): Promise<{ vendor: Caller; record: string }> {
      const vendor = await newVendor(app, `https://${HOST}`);
      const { record } = await json(await vendor.call('POST', '/v1/vendor/verify/domain'));
      dns.setTxt(HOST, ['unrelated', record]);
      expect(await json(await vendor.call('POST', '/v1/vendor/verify/domain/check'))).toEqual({ verified: true });
      return { vendor, record };
    }

    it('issues a stable record, verifies once the TXT record exists, and shows it', async () => {
      const vendor = await newVendor(app, `https://${HOST}`);
      expect(await verification(vendor)).toEqual({
        domainVerified: false,
        githubVerified: false,
        githubOrg: null,
        verified: false,
      });

      const issued = await vendor.call('POST', '/v1/vendor/verify/domain');
      expect(issued.status).toBe(200);
      const { record } = await json(issued);
      expect(record).toMatch(/^svc-verify=[0-9a-f]{40}$/);

      const early = await vendor.call('POST', '/v1/vendor/verify/domain/check');
      expect(early.status).toBe(200);
      expect(await json(early)).toEqual({ verified: false });
      expect(await verification(vendor)).toMatchObject({ domainVerified: false, verified: false });

      dns.setTxt(HOST, ['unrelated', record]);
      const checked = await vendor.call('POST', '/v1/vendor/verify/domain/check');
      expect(checked.status).toBe(200);
      expect(await json(checked)).toEqual({ verified: true });
      expect(await verification(vendor)).toEqual({
        domainVerified: true,
        githubVerified: false,
        githubOrg: null,
        verified: true,
      });

      // Asking again for the same host gives the same record, and keeps the verification.
      const again = await vendor.call('POST', '/v1/vendor/verify/domain');
      expect(again.status).toBe(200);
      expect(await json(again)).toEqual({ record });
      expect(await verification(vendor)).toMatchObject({ domainVerified: true, verified: true });
    });

    it('does not accept a TXT record holding only the token, or another vendor’s record', async () => {
      const vendor = await newVendor(app, `https://${HOST}`);
      const { record } = await json(await vendor.call('POST', '/v1/vendor/verify/domain'));
      dns.setTxt(HOST, [record.replace(/^svc-verify=/, ''), `svc-verify=${randomBytes(20).toString('hex')}`]);
      expect(await json(await vendor.call('POST', '/v1/vendor/verify/domain/check'))).toEqual({ verified: false });
      expect(await verification(vendor)).toMatchObject({ domainVerified: false });
    });

    it('answers 503 when DNS fails, and leaves the verification as it was', async () => {
      const { vendor } = await domainVerifiedVendor();
      dns.failWith(HOST, 'SERVFAIL');
      const failed = await vendor.call('POST', '/v1/vendor/verify/domain/check');
      expect(failed.status).toBe(503);
      expect((await json(failed)).message).toMatch(/DNS/);
      expect(await verification(vendor)).toMatchObject({ domainVerified: true, verified: true });

      // The scheduled re-check with DNS down changes nothing either.
      await recheck(app);
      expect(await verification(vendor)).toMatchObject({ domainVerified: true, verified: true });

      // Nor does it for a vendor not yet verified.
      const pending = await newVendor(app, `https://${HOST}`);
      await pending.call('POST', '/v1/vendor/verify/domain');
      expect((await pending.call('POST', '/v1/vendor/verify/domain/check')).status).toBe(503);
      expect(await verification(pending)).toMatchObject({ domainVerified: false });
    });

    it('lapses on the re-check once the TXT record is removed', async () => {
      const { vendor } = await domainVerifiedVendor();
      // Still there: the re-check keeps it.
      await recheck(app);
      expect(await verification(vendor)).toMatchObject({ domainVerified: true });

      dns.remove(HOST);
      await recheck(app);
      await eventually(async () => (await verification(vendor)).domainVerified === false);
      expect(await verification(vendor)).toEqual({
        domainVerified: false,
        githubVerified: false,
        githubOrg: null,
        verified: false,
      });
    });

    it('stamps what a re-check round appends with the round as correlation', async () => {
      const { vendor } = await domainVerifiedVendor();
      dns.remove(HOST);
      const roundId = `round-${randomUUID()}`;
      await app.server.app.get(VerificationRecheckWorker).runOnce(roundId);

      const history = await app.server.app.get(EventStore).readStream(vendorStreamId(vendor.userId));
      const lapse = history.find((e) => e.type === 'VendorDomainVerificationLapsed');
      expect(lapse?.metadata.correlationId).toBe(roundId);
      // The request that verified it carried its own.
      const verified = history.find((e) => e.type === 'VendorDomainVerified');
      expect(verified?.metadata.correlationId).toEqual(expect.any(String));
      expect(verified?.metadata.correlationId).not.toBe(roundId);
    });

    it('lapses when a check finds the record gone', async () => {
      const { vendor } = await domainVerifiedVendor();
      dns.remove(HOST);
      expect(await json(await vendor.call('POST', '/v1/vendor/verify/domain/check'))).toEqual({ verified: false });
      expect(await verification(vendor)).toMatchObject({ domainVerified: false, verified: false });
    });

    it('lapses at once when the profile website moves to another host, and issues a new record for it', async () => {
      const { vendor, record } = await domainVerifiedVendor();
      const profile = await json(await vendor.call('GET', '/v1/vendor/profile'));
      const moved = await vendor.call('POST', '/v1/vendor/profile', {
        slug: profile.slug,
        displayName: profile.displayName,
        website: 'https://other.acme.example',
      });
      expect(moved.status).toBe(200);
      expect(await json(moved)).toMatchObject({ domainVerified: false, verified: false });
      expect(await verification(vendor)).toMatchObject({ domainVerified: false, verified: false });

      const next = await json(await vendor.call('POST', '/v1/vendor/verify/domain'));
      expect(next.record).toMatch(/^svc-verify=/);
      expect(next.record).not.toBe(record);
      // The old host still holds the old record, but that proves nothing for the new one.
      expect(await json(await vendor.call('POST', '/v1/vendor/verify/domain/check'))).toEqual({ verified: false });
    });

    it('keeps the verification when the profile is saved with the same host', async () => {
      const { vendor } = await domainVerifiedVendor();
      const profile = await json(await vendor.call('GET', '/v1/vendor/profile'));
      const saved = await vendor.call('POST', '/v1/vendor/profile', {
        slug: profile.slug,
        displayName: 'Acme Tools Renamed',
        website: `https://${HOST}/about`,
      });
      expect(saved.status).toBe(200);
      expect(await verification(vendor)).toMatchObject({ domainVerified: true, verified: true });
    });

    it('answers 422 without a website, and for a check before any record was requested', async () => {
      const noWebsite = await newVendor(app);
      const refused = await noWebsite.call('POST', '/v1/vendor/verify/domain');
      expect(refused.status).toBe(422);
      expect((await json(refused)).message).toMatch(/website/);

      const noRecord = await newVendor(app, `https://${HOST}`);
      const early = await noRecord.call('POST', '/v1/vendor/verify/domain/check');
      expect(early.status).toBe(422);
      expect((await json(early)).message).toMatch(/verify\/domain/);
    });
  });

  describe('GitHub', () => {
    const callback = (params: Record<string, string>) =>
      fetch(`${app.url}/v1/vendor/verify/github/callback?${new URLSearchParams(params)}`);

    async function start(vendor: Caller, org = 'acme-org'): Promise<{ url: URL; state: string }> {
      const response = await vendor.call('GET', `/v1/vendor/verify/github?org=${encodeURIComponent(org)}`);
      expect(response.status).toBe(200);
      const url = new URL((await json(response)).url);
      return { url, state: url.searchParams.get('state')! };
    }

    async function githubVerifiedVendor(login: string): Promise<Caller> {
      const vendor = await newVendor(app);
      const { state } = await start(vendor);
      const done = await callback({ state, code: github.authorize(login, { 'acme-org': 'admin' }) });
      expect(done.status).toBe(200);
      return vendor;
    }

    it('sends the vendor to GitHub with the client id, callback, scope and a state', async () => {
      const vendor = await newVendor(app);
      const { url, state } = await start(vendor);
      expect(`${url.origin}${url.pathname}`).toBe(`${github.url}/login/oauth/authorize`);
      expect(url.searchParams.get('client_id')).toBe(CLIENT_ID);
      expect(url.searchParams.get('redirect_uri')).toBe(`${BASE_URL}/v1/vendor/verify/github/callback`);
      expect(url.searchParams.get('scope')).toBe('read:org');
      expect(state).toMatch(new RegExp(`^${vendor.userId}\\.[A-Za-z0-9_-]{20,}$`));
      // A second start gives a fresh state.
      expect((await start(vendor)).state).not.toBe(state);
    });

    it('verifies an org admin through the callback (no token needed), once per state', async () => {
      const vendor = await newVendor(app);
      const { state } = await start(vendor);
      const code = github.authorize('octo', { 'acme-org': 'admin' });

      const done = await callback({ state, code });
      expect(done.status).toBe(200);
      expect(await json(done)).toEqual({ verified: true, githubOrg: 'acme-org' });
      expect(await verification(vendor)).toEqual({
        domainVerified: false,
        githubVerified: true,
        githubOrg: 'acme-org',
        verified: true,
      });

      const reused = await callback({ state, code: github.authorize('octo', { 'acme-org': 'admin' }) });
      expect(reused.status).toBe(400);
      expect((await json(reused)).message).toMatch(/invalid, expired or already used/);
      expect(await verification(vendor)).toMatchObject({ githubVerified: true, githubOrg: 'acme-org' });
    });

    it('refuses a member who is not an admin (422) and uses the state up', async () => {
      const vendor = await newVendor(app);
      const { state } = await start(vendor);
      const refused = await callback({ state, code: github.authorize('mona', { 'acme-org': 'member' }) });
      expect(refused.status).toBe(422);
      expect((await json(refused)).message).toMatch(/mona is not an admin of the acme-org/);
      expect(await verification(vendor)).toMatchObject({ githubVerified: false, githubOrg: null, verified: false });

      const retried = await callback({ state, code: github.authorize('octo', { 'acme-org': 'admin' }) });
      expect(retried.status).toBe(400);
      expect(await verification(vendor)).toMatchObject({ githubVerified: false, verified: false });
    });

    it('refuses an account outside the organization (422)', async () => {
      const vendor = await newVendor(app);
      const { state } = await start(vendor);
      const refused = await callback({ state, code: github.authorize('stranger', { 'other-org': 'admin' }) });
      expect(refused.status).toBe(422);
      expect(await verification(vendor)).toMatchObject({ githubVerified: false });
    });

    it('refuses a bad code (400) and spends the state', async () => {
      const vendor = await newVendor(app);
      const { state } = await start(vendor);
      const refused = await callback({ state, code: 'not-a-code' });
      expect(refused.status).toBe(400);
      const retried = await callback({ state, code: github.authorize('octo', { 'acme-org': 'admin' }) });
      expect(retried.status).toBe(400);
    });

    it('refuses forged, foreign and missing states and codes with 400', async () => {
      const vendor = await newVendor(app);
      const { state } = await start(vendor);
      const code = () => github.authorize('octo', { 'acme-org': 'admin' });
      const tokenCallsBefore = github.requests.filter((r) => r.path === '/login/oauth/access_token').length;
      for (const params of [
        { state: `${vendor.userId}.forged`, code: code() },
        { state: 'no-uuid-here', code: code() },
        { state: 'x'.repeat(201), code: code() },
        { code: code() },
        { state },
        { state, code: '' },
        {},
      ] as Record<string, string>[]) {
        const response = await callback(params);
        expect({ params, status: response.status }).toEqual({ params, status: 400 });
      }
      // None of those spent a code at GitHub.
      expect(github.requests.filter((r) => r.path === '/login/oauth/access_token').length).toBe(tokenCallsBefore);
      // And the real state is still good.
      expect((await callback({ state, code: code() })).status).toBe(200);
    });

    // Also unauthenticated callers must not learn whether a user id has a vendor profile.
    it('refuses a forged state naming no vendor (random uuid + ".x") with 400', async () => {
      const forged = await callback({ state: `${randomUUID()}.x`, code: github.authorize('octo', { 'acme-org': 'admin' }) });
      expect(forged.status).toBe(400);
    });

    it('expires the state after ten minutes', async () => {
      const vendor = await newVendor(app);
      const { state } = await start(vendor);
      clock.advance(10 * 60 * 1000 + 1);
      const late = await callback({ state, code: github.authorize('octo', { 'acme-org': 'admin' }) });
      expect(late.status).toBe(400);
      expect(await verification(vendor)).toMatchObject({ githubVerified: false });

      const { state: fresh } = await start(vendor);
      clock.advance(9 * 60 * 1000);
      expect((await callback({ state: fresh, code: github.authorize('octo', { 'acme-org': 'admin' }) })).status).toBe(200);
    });

    it('answers 400 for a missing or malformed org', async () => {
      const vendor = await newVendor(app);
      for (const query of ['', '?org=', '?org=-acme', '?org=acme_org', `?org=${'a'.repeat(40)}`, '?org=a%2Fb']) {
        const response = await vendor.call('GET', `/v1/vendor/verify/github${query}`);
        expect({ query, status: response.status }).toEqual({ query, status: 400 });
      }
    });

    it('never stores the GitHub access token in clear', async () => {
      const vendor = await githubVerifiedVendor('octo');
      const dataSource = app.server.app.get(DataSource);
      const rows: { type: string; data: string }[] = await dataSource.query('SELECT type, data::text AS data FROM events');
      expect(rows.length).toBeGreaterThan(0);
      // The fake issues tokens as gho_<hex>; none may appear in the log.
      expect(rows.filter((row) => row.data.includes('gho_'))).toEqual([]);
      const verified = rows.filter((row) => row.type === 'VendorGithubVerified' && row.data.includes(vendor.userId));
      expect(verified).toHaveLength(1);
      expect(JSON.parse(verified[0].data).accessToken).toMatch(/^pd1:/);
      // Nor any other table.
      const [{ leaks }] = await dataSource.query(
        `SELECT count(*)::int AS leaks FROM vendors v WHERE row_to_json(v)::text LIKE '%gho\\_%'`,
      );
      expect(leaks).toBe(0);
    });

    it('lapses on the re-check once the account is demoted, and not while it stays admin', async () => {
      const vendor = await githubVerifiedVendor('demoted-octo');
      await recheck(app);
      expect(await verification(vendor)).toMatchObject({ githubVerified: true, githubOrg: 'acme-org' });

      github.setMemberships('demoted-octo', { 'acme-org': 'member' });
      await recheck(app);
      await eventually(async () => (await verification(vendor)).githubVerified === false);
      expect(await verification(vendor)).toEqual({
        domainVerified: false,
        githubVerified: false,
        githubOrg: null,
        verified: false,
      });
    });

    it('lapses on the re-check once the token is revoked', async () => {
      const vendor = await githubVerifiedVendor('revoking-octo');
      github.revokeTokensOf('revoking-octo');
      await recheck(app);
      await eventually(async () => (await verification(vendor)).githubVerified === false);
    });

    it('leaves the verification as it was when GitHub is unreachable on the re-check', async () => {
      const vendor = await githubVerifiedVendor('steady-octo');
      await github.close();
      githubClosed = true;
      await recheck(app);
      expect(await verification(vendor)).toMatchObject({ githubVerified: true, githubOrg: 'acme-org', verified: true });
    });

    it('answers 503 when GitHub is not configured', async () => {
      const bare = await startTestApp();
      try {
        const vendor = await newVendor(bare);
        const response = await vendor.call('GET', '/v1/vendor/verify/github?org=acme-org');
        expect(response.status).toBe(503);
        expect((await json(response)).message).toMatch(/GITHUB_CLIENT_ID/);
      } finally {
        await bare.close();
      }
    });
  });

  it('answers 401 without a token and 403 without the sell scope', async () => {
    const routes: [string, string][] = [
      ['GET', '/v1/vendor/verification'],
      ['POST', '/v1/vendor/verify/domain'],
      ['POST', '/v1/vendor/verify/domain/check'],
      ['GET', '/v1/vendor/verify/github?org=acme-org'],
    ];
    const reader = await newCaller(app, ['read', 'purchase', 'download']);
    for (const [method, route] of routes) {
      const anonymous = await fetch(`${app.url}${route}`, { method });
      expect({ route, status: anonymous.status }).toEqual({ route, status: 401 });
      const unscoped = await reader.call(method, route);
      expect({ route, status: unscoped.status }).toEqual({ route, status: 403 });
    }
  });
});
