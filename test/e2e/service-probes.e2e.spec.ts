import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { Caller, eventually, newCaller } from '../support/accounts';
import { startTestApp, TestApp } from '../support/app';
import { CatalogSeed, SeedVendor } from '../support/catalog-seed';
import { FakeService, startFakeService, PATIENT } from '../support/fake-services';
import { json } from '../support/http';

describe('service registration, health probes and discovery', () => {
  let app: TestApp;
  let seed: CatalogSeed;
  let vendorCaller: Caller;
  let vendor: SeedVendor;

  beforeAll(async () => {
    app = await startTestApp({
      env: {
        ALLOW_PRIVATE_SERVICE_ENDPOINTS: 'true',
        SERVICE_PROBE_INTERVAL_MS: '1000',
        SERVICE_DEGRADED_MS: '5000',
        ...PATIENT,
      },
    });
    seed = await CatalogSeed.for(app);
    vendorCaller = await newCaller(app);
    vendor = await seed.vendor(`probe-${randomUUID().slice(0, 8)}`, { id: vendorCaller.userId });
  });
  afterAll(() => app.close());

  const healthOf = async (listingId: string) =>
    (await json(await vendorCaller.call('GET', '/v1/network/service-health'))).listings.find(
      (l: { id: string }) => l.id === listingId,
    );

  it('probes a registered MCP service at once, lists the tools it reports, and turns inactive after it dies', async () => {
    const service: FakeService = await startFakeService('mcp-sse');
    const slug = `probed-${randomUUID().slice(0, 8)}`;
    // The manifest claims a tool the service does not have: discovery shows what the service lists.
    const { listingId } = await seed.listing({ vendor, slug, tools: ['claimed-only'] });
    const patched = await vendorCaller.call('PATCH', `/v1/vendor/listings/${listingId}`, {
      serviceEndpoint: service.url,
      serviceProtocol: 'mcp',
      serviceTransport: 'sse',
      pricingModel: 'metered',
      perCallCents: 3,
      settlementMethods: ['wallet'],
    });
    expect(patched.status).toBe(200);

    const live = await eventually(async () => {
      const health = await healthOf(listingId);
      return health?.latestCheck?.status === 'ok' && health;
    });
    expect(live).toEqual({
      id: listingId,
      slug,
      title: expect.any(String),
      serviceEndpoint: service.url,
      serviceStatus: 'active',
      uptimePct: '100.00',
      latestCheck: { status: 'ok', responseMs: expect.any(Number), toolsCount: 3, error: null, checkedAt: expect.any(String) },
    });

    const { services } = await json(await fetch(`${app.url}/v1/services?tool=hang&protocol=mcp`));
    expect(services).toContainEqual(
      expect.objectContaining({
        id: listingId,
        slug,
        vendorSlug: vendor.slug,
        protocol: 'mcp',
        transport: 'sse',
        endpoint: service.url,
        toolNames: ['echo', 'fail', 'hang'],
        settlementMethods: ['wallet'],
        perCallCents: 3,
        status: 'active',
        totalCalls: 0,
      }),
    );
    // Search's tool filter reads the same: the tool the service lists finds the listing.
    const searched = await json(await fetch(`${app.url}/v1/search?tool=hang&live=true&protocol=mcp&settlement=wallet`));
    expect(searched.results.map((r: { slug: string }) => r.slug)).toContain(slug);
    const claimed = await json(await fetch(`${app.url}/v1/services?tool=claimed-only`));
    expect(claimed.services.map((s: { id: string }) => s.id)).not.toContain(listingId);

    await service.close();
    const dead = await eventually(
      async () => {
        const health = await healthOf(listingId);
        return health?.serviceStatus === 'inactive' && health;
      },
      { timeoutMs: 30_000, description: 'three failed probes in a row' },
    );
    expect(dead.latestCheck).toMatchObject({ status: 'error', error: expect.any(String) });
    const inactive = await json(await fetch(`${app.url}/v1/services?status=inactive`));
    expect(inactive.services.map((s: { id: string }) => s.id)).toContain(listingId);
  });

  it('with ALLOW_PRIVATE_SERVICE_ENDPOINTS registers names and addresses of this machine, plain http included', async () => {
    const { listingId } = await seed.listing({ vendor, slug: `private-${randomUUID().slice(0, 8)}` });
    for (const serviceEndpoint of [`https://${hostname()}/x`, 'https://localhost/x', 'http://127.0.0.1:9/x']) {
      const patched = await vendorCaller.call('PATCH', `/v1/vendor/listings/${listingId}`, {
        serviceEndpoint,
        serviceProtocol: 'https',
      });
      expect([serviceEndpoint, patched.status]).toEqual([serviceEndpoint, 200]);
    }
  });

  it('validates the query of GET /v1/services', async () => {
    for (const query of ['per_page=51', 'page=0', 'protocol=ftp', 'status=up', 'sort=popular', 'maxPerCallCents=-1'])
      expect([query, (await fetch(`${app.url}/v1/services?${query}`)).status]).toEqual([query, 400]);
    const page = await json(await fetch(`${app.url}/v1/services?per_page=1&sort=trusted`));
    expect(page).toEqual({ services: expect.any(Array), total: expect.any(Number), page: 1, perPage: 1 });
  });
});

describe('service endpoints without ALLOW_PRIVATE_SERVICE_ENDPOINTS', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  it('refuses http and private addresses at registration, and refuses a name resolving to 127.0.0.1 at call time', async () => {
    const seed = await CatalogSeed.for(app);
    const vendorCaller = await newCaller(app);
    const vendor = await seed.vendor(`ssrf-${randomUUID().slice(0, 8)}`, { id: vendorCaller.userId });
    const { listingId } = await seed.listing({ vendor, slug: `ssrf-${randomUUID().slice(0, 8)}` });
    const patch = (serviceEndpoint: string) =>
      vendorCaller.call('PATCH', `/v1/vendor/listings/${listingId}`, { serviceEndpoint, serviceProtocol: 'https' });
    for (const endpoint of [
      'http://example.com/api',
      'https://127.0.0.1/api',
      'https://169.254.169.254/latest',
      'https://[::1]/x',
      'https://localhost/x',
      'https://LocalHost/x',
      'https://api.localhost/x',
    ])
      expect([endpoint, (await patch(endpoint)).status]).toEqual([endpoint, 400]);

    // This machine's own name, which the hosts file maps inward: resolved at registration by the system
    // resolver, as the connection guard resolves it, and refused by the same rule.
    const ownName = await patch(`https://${hostname()}/x`);
    expect(ownName.status).toBe(400);
    expect((await json(ownName)).message).toMatch(
      new RegExp(`${hostname()} resolves to .*private, loopback or link-local.*ALLOW_PRIVATE_SERVICE_ENDPOINTS=true`),
    );
    // A name that resolves nowhere could serve no call.
    const nowhere = await patch('https://nowhere.invalid/x');
    expect(nowhere.status).toBe(422);
    expect((await json(nowhere)).message).toMatch(/nowhere\.invalid does not resolve/);

    // A name that resolved outward at registration and inward when connected to (a rebinding name; played by
    // this machine's own name, seeded past the registration check): the call is refused and nothing is charged.
    const service = await startFakeService('https');
    const port = new URL(service.url).port;
    const slug = `rebind-${randomUUID().slice(0, 8)}`;
    await seed.listing({
      vendor,
      slug,
      changes: { serviceEndpoint: `https://${hostname()}:${port}/`, serviceProtocol: 'https' },
    });
    const caller = await newCaller(app);
    const answer = await caller.call('POST', `/v1/services/${vendor.slug}/${slug}/call`, { tool: 'echo' });
    expect(answer.status).toBe(502);
    expect((await json(answer)).message).toMatch(/private, loopback or link-local/);
    expect(service.calls).toHaveLength(0);
    await service.close();
  });
});
