import { randomUUID } from 'node:crypto';
import { Caller, newCaller } from '../support/accounts';
import { startTestApp, TestApp } from '../support/app';
import { CatalogSeed } from '../support/catalog-seed';
import { FakeService, PATIENT, startFakeService } from '../support/fake-services';
import { json } from '../support/http';
import { addMember, createOrg } from '../support/orgs';
import { fundWallet } from '../support/wallet';

const short = () => randomUUID().slice(0, 8);

/** Everything a request can name a listing by: its address, its id, its release, one of its reviews or sessions. */
interface Target {
  vendor: string;
  slug: string;
  listingId: string;
  releaseId: string;
  reviewId: string;
  sessionId: string;
}

/**
 * Every route that names a listing, as the OpenAPI document spells its path, with a request for a target. The test
 * below checks this table against the document, so a new route naming a listing cannot be left out of the walk.
 */
const ROUTES: { method: string; path: string; request: (t: Target, org: string) => { path: string; body?: unknown } }[] = [
  { method: 'GET', path: '/v1/listings/{vendor}/{slug}', request: (t) => ({ path: `/v1/listings/${t.vendor}/${t.slug}` }) },
  {
    method: 'GET',
    path: '/v1/listings/{vendor}/{slug}/releases',
    request: (t) => ({ path: `/v1/listings/${t.vendor}/${t.slug}/releases` }),
  },
  {
    method: 'GET',
    path: '/v1/listings/{vendor}/{slug}/reviews',
    request: (t) => ({ path: `/v1/listings/${t.vendor}/${t.slug}/reviews` }),
  },
  {
    method: 'POST',
    path: '/v1/listings/{vendor}/{slug}/reviews',
    request: (t) => ({ path: `/v1/listings/${t.vendor}/${t.slug}/reviews`, body: { rating: 1, body: 'Found it anyway' } }),
  },
  {
    method: 'POST',
    path: '/v1/listings/{vendor}/{slug}/reviews/{id}/vote',
    request: (t) => ({ path: `/v1/listings/${t.vendor}/${t.slug}/reviews/${t.reviewId}/vote`, body: { helpful: false } }),
  },
  {
    method: 'POST',
    path: '/v1/services/{vendor}/{slug}/call',
    request: (t) => ({ path: `/v1/services/${t.vendor}/${t.slug}/call`, body: { tool: 'echo', input: { text: 'hi' } } }),
  },
  {
    method: 'POST',
    path: '/v1/network/sessions',
    request: (t) => ({ path: '/v1/network/sessions', body: { vendor: t.vendor, slug: t.slug, intent: 'let me in' } }),
  },
  { method: 'GET', path: '/v1/network/sessions/{id}', request: (t) => ({ path: `/v1/network/sessions/${t.sessionId}` }) },
  {
    method: 'POST',
    path: '/v1/network/sessions/{id}/messages',
    request: (t) => ({ path: `/v1/network/sessions/${t.sessionId}/messages`, body: { type: 'quote.request', payload: {} } }),
  },
  {
    method: 'GET',
    path: '/v1/network/sessions/{id}/messages',
    request: (t) => ({ path: `/v1/network/sessions/${t.sessionId}/messages` }),
  },
  {
    method: 'POST',
    path: '/v1/network/sessions/{id}/close',
    request: (t) => ({ path: `/v1/network/sessions/${t.sessionId}/close` }),
  },
  {
    method: 'POST',
    path: '/v1/purchases',
    request: (t) => ({ path: '/v1/purchases', body: { listingId: t.listingId, useWallet: true } }),
  },
  {
    method: 'POST',
    path: '/v1/purchases',
    request: (t) => ({ path: '/v1/purchases', body: { listingId: t.listingId, releaseId: t.releaseId, useWallet: true } }),
  },
  // A release that is not the listing's: the listing is judged first, so even this says nothing about it.
  {
    method: 'POST',
    path: '/v1/purchases',
    request: (t) => ({ path: '/v1/purchases', body: { listingId: t.listingId, releaseId: randomUUID(), useWallet: true } }),
  },
  { method: 'GET', path: '/v1/entitlements/{listingId}', request: (t) => ({ path: `/v1/entitlements/${t.listingId}` }) },
  { method: 'POST', path: '/v1/downloads', request: (t) => ({ path: '/v1/downloads', body: { releaseId: t.releaseId } }) },
  {
    method: 'GET',
    path: '/v1/downloads/{releaseId}',
    request: (t) => ({ path: `/v1/downloads/${t.releaseId}?user=${randomUUID()}&expires=9999999999&signature=00` }),
  },
  {
    method: 'PATCH',
    path: '/v1/vendor/listings/{id}',
    request: (t) => ({ path: `/v1/vendor/listings/${t.listingId}`, body: { title: 'Mine now' } }),
  },
  {
    method: 'PATCH',
    path: '/v1/vendor/releases/{id}/publish',
    request: (t) => ({ path: `/v1/vendor/releases/${t.releaseId}/publish` }),
  },
  {
    method: 'POST',
    path: '/v1/vendor/reviews/{id}/reply',
    request: (t) => ({ path: `/v1/vendor/reviews/${t.reviewId}/reply`, body: { body: 'Thanks' } }),
  },
  { method: 'GET', path: '/v1/orgs/{slug}/packages', request: (_t, org) => ({ path: `/v1/orgs/${org}/packages` }) },
  {
    method: 'PATCH',
    path: '/v1/orgs/{slug}/packages/{listingId}',
    request: (t, org) => ({ path: `/v1/orgs/${org}/packages/${t.listingId}`, body: { visibility: 'public' } }),
  },
];

/** Routes that take a listing id only as an address to send the caller back to: they read nothing about the listing. */
const NOT_LISTING_READS = ['POST /v1/billing/card-setup-session'];

type OpenApi = {
  paths: Record<string, Record<string, { requestBody?: { content?: Record<string, { schema?: { $ref?: string } }> } }>>;
  components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
};

/** The operations of the document that name a listing: by address or id in the path, or in the JSON body. */
function operationsNamingAListing(doc: OpenApi): string[] {
  const named: string[] = [];
  for (const [path, operations] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const ref = operation.requestBody?.content?.['application/json']?.schema?.$ref;
      const fields = Object.keys((ref && doc.components.schemas[ref.split('/').pop()!]?.properties) ?? {});
      const inPath =
        (path.includes('{vendor}') && path.includes('{slug}')) ||
        /\{(listingId|releaseId)\}/.test(path) ||
        /^\/v1\/(vendor\/(listings|releases|reviews)|network\/sessions)\/\{id\}/.test(path);
      const inBody =
        fields.includes('listingId') || fields.includes('releaseId') || (fields.includes('vendor') && fields.includes('slug'));
      if (inPath || inBody) named.push(`${method.toUpperCase()} ${path}`);
    }
  }
  return named;
}

/**
 * One package's story, told in order: linked to an org, made private, used by its members and admins, walked by an
 * outsider, made public again. The tests share it, so they run as a file, not one by one.
 */
describe('private packages: an org vendor profile, visibility, and nothing revealed to outsiders', () => {
  let app: TestApp;
  let seed: CatalogSeed;
  /** The org's owner, whose vendor profile is the org's: the listing's seller. */
  let owner: Caller;
  let admin: Caller;
  let member: Caller;
  let outsider: Caller;
  let service: FakeService;
  let orgSlug: string;
  const vendorSlug = `team-shop-${short()}`;
  const listingSlug = `secret-pkg-${short()}`;
  let listingId: string;
  let releaseId: string;
  /** Made by the member and the admin while it is private; the outsider's walk names them. */
  const reviewIds: Record<string, string> = {};
  const sessionIds: Record<string, string> = {};

  /** Download URLs carry the configured base URL; the test app listens elsewhere. */
  const onThisApp = (url: string) => `${app.url}${new URL(url).pathname}${new URL(url).search}`;
  const balanceOf = async (caller: Caller) => (await json(await caller.call('GET', '/v1/wallet'))).balanceCents as number;
  const transactionsOf = async (caller: Caller) => (await json(await caller.call('GET', '/v1/wallet/transactions'))).transactions;
  const setVisibility = async (by: Caller, id: string, visibility: string) => {
    const changed = await by.call('PATCH', `/v1/orgs/${orgSlug}/packages/${id}`, { visibility });
    expect(changed.status).toBe(200);
  };

  beforeAll(async () => {
    app = await startTestApp({ env: { ALLOW_PRIVATE_SERVICE_ENDPOINTS: 'true', ...PATIENT } });
    seed = await CatalogSeed.for(app);
    service = await startFakeService('https');
    [owner, admin, member, outsider] = await Promise.all([newCaller(app), newCaller(app), newCaller(app), newCaller(app)]);
    ({ slug: orgSlug } = await createOrg(owner));
    await addMember(app, owner, orgSlug, admin, 'admin');
    await addMember(app, owner, orgSlug, member, 'member');
    const profile = await owner.call('POST', '/v1/vendor/profile', { slug: vendorSlug, displayName: 'Team Shop', orgSlug });
    expect(profile.status).toBe(201);
    ({ listingId, releaseId } = await seed.listing({
      vendor: { id: owner.userId, slug: vendorSlug },
      slug: listingSlug,
      title: 'Secret package',
      priceCents: 300,
      archive: Buffer.from('PK secret archive'),
      changes: {
        serviceEndpoint: service.url,
        serviceProtocol: 'https',
        pricingModel: 'metered',
        perCallCents: 25,
        settlementMethods: ['wallet'],
      },
    }));
    await Promise.all([admin, member, outsider].map((caller) => fundWallet(app, caller, 1000)));
  });
  afterAll(async () => {
    await service?.close();
    await app?.close();
  });

  it('links a vendor profile only for an org admin or owner; a non-member gets 404', async () => {
    const asMember = await member.call('POST', '/v1/vendor/profile', {
      slug: `m-${short()}`,
      displayName: 'Member shop',
      orgSlug,
    });
    expect(asMember.status).toBe(403);
    const asOutsider = await outsider.call('POST', '/v1/vendor/profile', {
      slug: `o-${short()}`,
      displayName: 'Outsider shop',
      orgSlug,
    });
    expect(asOutsider.status).toBe(404);
  });

  it('lists the org packages to members with filters, and lets only admins and owners change visibility', async () => {
    const listed = await json(await member.call('GET', `/v1/orgs/${orgSlug}/packages?status=published`));
    expect(listed.packages).toContainEqual(expect.objectContaining({ id: listingId, visibility: 'public' }));
    expect((await json(await member.call('GET', `/v1/orgs/${orgSlug}/packages?type=nope`))).packages).toEqual([]);
    expect((await member.call('GET', `/v1/orgs/${orgSlug}/packages?status=bogus`)).status).toBe(400);
    expect((await outsider.call('GET', `/v1/orgs/${orgSlug}/packages`)).status).toBe(404);
    expect((await member.call('PATCH', `/v1/orgs/${orgSlug}/packages/${listingId}`, { visibility: 'private' })).status).toBe(403);
    expect((await owner.call('PATCH', `/v1/orgs/${orgSlug}/packages/${listingId}`, { visibility: 'secret' })).status).toBe(400);
    expect((await owner.call('PATCH', `/v1/orgs/${orgSlug}/packages/${randomUUID()}`, { visibility: 'private' })).status).toBe(
      404,
    );
    const changed = await owner.call('PATCH', `/v1/orgs/${orgSlug}/packages/${listingId}`, { visibility: 'private' });
    expect(changed.status).toBe(200);
    expect((await json(changed)).package).toMatchObject({ id: listingId, visibility: 'private' });
  });

  it('lets members and admins use every route of the private package as before: pages, reviews, calls, sessions, purchases, downloads', async () => {
    const paths = {
      listing: `/v1/listings/${vendorSlug}/${listingSlug}`,
      call: `/v1/services/${vendorSlug}/${listingSlug}/call`,
    };
    for (const [role, caller] of Object.entries({ member, admin })) {
      expect((await caller.call('GET', paths.listing)).status).toBe(200);
      const releases = await json(await caller.call('GET', `${paths.listing}/releases`));
      expect(releases.releases.map((r: { id: string }) => r.id)).toEqual([releaseId]);
      expect((await caller.call('GET', `${paths.listing}/reviews`)).status).toBe(200);
      const review = await caller.call('POST', `${paths.listing}/reviews`, { rating: 5, body: `Good, says the ${role}` });
      expect(review.status).toBe(201);
      reviewIds[role] = (await json(review)).review.id;

      const callsBefore = service.calls.length;
      const called = await caller.call('POST', paths.call, { tool: 'echo', input: { text: role } });
      expect(called.status).toBe(200);
      expect(await json(called)).toMatchObject({ costCents: 25, walletBalanceCents: 975 });
      expect(service.calls).toHaveLength(callsBefore + 1);

      const opened = await caller.call('POST', '/v1/network/sessions', { vendor: vendorSlug, slug: listingSlug, intent: 'hi' });
      expect(opened.status).toBe(201);
      const sessionId = (await json(opened)).session.id as string;
      sessionIds[role] = sessionId;
      const sent = await caller.call('POST', `/v1/network/sessions/${sessionId}/messages`, {
        type: 'quote.request',
        payload: {},
      });
      expect(sent.status).toBe(200);
      expect(service.messages.filter((m) => m.sessionId === sessionId).map((m) => m.type)).toEqual([
        'intent.open',
        'quote.request',
      ]);
      expect((await caller.call('GET', `/v1/network/sessions/${sessionId}`)).status).toBe(200);
      expect((await json(await caller.call('GET', `/v1/network/sessions/${sessionId}/messages`))).messages).toHaveLength(4);
      const inSession = await caller.call('POST', paths.call, { tool: 'echo', sessionId });
      expect(inSession.status).toBe(200);

      const bought = await caller.call('POST', '/v1/purchases', { listingId, useWallet: true });
      expect(bought.status).toBe(200);
      expect(await json(bought)).toMatchObject({ status: 'purchased', amountCents: 300, walletBalanceCents: 650 });
      expect((await caller.call('GET', `/v1/entitlements/${listingId}`)).status).toBe(200);
      const ticket = await caller.call('POST', '/v1/downloads', { releaseId });
      expect(ticket.status).toBe(200);
      const file = await fetch(onThisApp((await json(ticket)).url));
      expect(file.status).toBe(200);
      expect(Buffer.from(await file.arrayBuffer()).toString()).toBe('PK secret archive');

      const packages = await json(await caller.call('GET', `/v1/orgs/${orgSlug}/packages`));
      expect(packages.packages).toContainEqual(expect.objectContaining({ id: listingId, visibility: 'private' }));
    }
    // Each votes on the other's review; only admins (and owners) change visibility.
    expect((await member.call('POST', `${paths.listing}/reviews/${reviewIds.admin}/vote`, { helpful: true })).status).toBe(200);
    expect((await admin.call('POST', `${paths.listing}/reviews/${reviewIds.member}/vote`, { helpful: true })).status).toBe(200);
    expect((await member.call('PATCH', `/v1/orgs/${orgSlug}/packages/${listingId}`, { visibility: 'org_only' })).status).toBe(
      403,
    );
    await setVisibility(admin, listingId, 'org_only');
    expect((await member.call('GET', paths.listing)).status).toBe(200);
    expect((await member.call('POST', paths.call, { tool: 'echo' })).status).toBe(200);
    await setVisibility(admin, listingId, 'private');

    // The vendor routes belong to the seller (the profile's linking user), as for any vendor: the seller uses them.
    const edited = await owner.call('PATCH', `/v1/vendor/listings/${listingId}`, { title: 'Secret package' });
    expect(edited.status).toBe(200);
    expect((await owner.call('POST', `/v1/vendor/reviews/${reviewIds.member}/reply`, { body: 'Thanks' })).status).toBe(200);
    expect((await owner.call('GET', `/v1/network/sessions/${sessionIds.member}`)).status).toBe(200);
  });

  it('answers an outsider on every route naming the private package exactly as for a listing that does not exist, and never charges or calls the vendor', async () => {
    const doc = (await json(await fetch(`${app.url}/docs/json`))) as OpenApi;
    const walked = new Set(ROUTES.map((route) => `${route.method} ${route.path}`));
    expect(
      operationsNamingAListing(doc).filter((operation) => !walked.has(operation) && !NOT_LISTING_READS.includes(operation)),
    ).toEqual([]);
    expect([...walked].filter((operation) => !doc.paths[operation.split(' ')[1]])).toEqual([]);

    // A vendor of its own, so the vendor routes judge the listing rather than refuse a caller without a profile.
    const profile = await outsider.call('POST', '/v1/vendor/profile', { slug: `outsider-${short()}`, displayName: 'Outsider' });
    expect(profile.status).toBe(201);
    const hidden: Target = {
      vendor: vendorSlug,
      slug: listingSlug,
      listingId,
      releaseId,
      reviewId: reviewIds.member,
      sessionId: sessionIds.member,
    };
    const missing: Target = {
      vendor: vendorSlug,
      slug: `no-such-${short()}`,
      listingId: randomUUID(),
      releaseId: randomUUID(),
      reviewId: randomUUID(),
      sessionId: randomUUID(),
    };
    const balance = await balanceOf(outsider);
    const transactions = await transactionsOf(outsider);
    const upstream = { calls: service.calls.length, messages: service.messages.length };

    const answers = async (target: Target) => {
      const seen: Record<string, { status: number; body: string }> = {};
      for (const [index, route] of ROUTES.entries()) {
        const { path, body } = route.request(target, orgSlug);
        const response = await outsider.call(route.method, path, body);
        seen[`${index}: ${route.method} ${route.path}`] = { status: response.status, body: await response.text() };
      }
      return seen;
    };
    const asHidden = await answers(hidden);
    const asMissing = await answers(missing);
    expect(asHidden).toEqual(asMissing);
    expect(Object.entries(asHidden).filter(([, answer]) => answer.status < 400)).toEqual([]);
    expect(asHidden['0: GET /v1/listings/{vendor}/{slug}']).toEqual({
      status: 404,
      body: JSON.stringify({ message: 'Listing not found' }),
    });
    expect(asHidden['5: POST /v1/services/{vendor}/{slug}/call'].status).toBe(404);
    expect(asHidden['6: POST /v1/network/sessions'].status).toBe(404);

    // Nothing charged, nothing reached the vendor's service.
    expect(await balanceOf(outsider)).toBe(balance);
    expect(await transactionsOf(outsider)).toEqual(transactions);
    expect({ calls: service.calls.length, messages: service.messages.length }).toEqual(upstream);
    // What the outsider tried changed nothing: the member's session is still open, the listing still private.
    expect((await json(await member.call('GET', `/v1/network/sessions/${sessionIds.member}`))).session.status).toBe('open');
    expect((await json(await admin.call('GET', `/v1/orgs/${orgSlug}/packages`))).packages).toContainEqual(
      expect.objectContaining({ id: listingId, visibility: 'private', title: 'Secret package' }),
    );
  });

  it('walks every public GET route as an outsider and anonymously: nothing reveals the private package', async () => {
    const doc = await json(await fetch(`${app.url}/docs/json`));
    const values: Record<string, string> = {
      vendor: vendorSlug,
      vendorSlug,
      slug: listingSlug,
      listingId,
      id: listingId,
      releaseId,
    };
    const markers = [listingId, listingSlug, releaseId];
    const walked: string[] = [];
    const revealing: string[] = [];
    for (const [path, operations] of Object.entries<Record<string, unknown>>(doc.paths)) {
      if (!('get' in operations)) continue;
      const concrete = path.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? listingId);
      for (const caller of [outsider, null]) {
        const response = caller
          ? await caller.call('GET', concrete)
          : await fetch(`${app.url}${concrete}`, { redirect: 'manual' });
        const body = await response.text();
        if (response.status === 404 || response.status >= 400) continue;
        if (markers.some((marker) => body.includes(marker)))
          revealing.push(`GET ${concrete} (${caller ? 'outsider' : 'anonymous'})`);
      }
      walked.push(path);
    }
    expect(revealing).toEqual([]);
    expect(walked).toEqual(expect.arrayContaining(['/v1/search', '/v1/leaderboard', '/v1/audits', '/v1/services']));
    // Lists never show a non-public listing, to members neither: they find it by address and in the org's packages.
    const services = await json(await member.call('GET', '/v1/services'));
    expect(JSON.stringify(services)).not.toContain(listingId);
  });

  it('keeps an earlier buyer’s session readable and closable once the listing turns private, but delivers and calls nothing more', async () => {
    const slug = `was-public-${short()}`;
    const earlier = await seed.listing({
      vendor: { id: owner.userId, slug: vendorSlug },
      slug,
      title: 'Once public',
      archive: Buffer.from('PK once public'),
      changes: {
        serviceEndpoint: service.url,
        serviceProtocol: 'https',
        pricingModel: 'metered',
        perCallCents: 25,
        settlementMethods: ['wallet'],
      },
    });
    const buyer = await newCaller(app);
    await fundWallet(app, buyer, 1000);
    const opened = await buyer.call('POST', '/v1/network/sessions', { vendor: vendorSlug, slug, intent: 'hello' });
    expect(opened.status).toBe(201);
    const sessionId = (await json(opened)).session.id as string;
    expect((await buyer.call('POST', `/v1/services/${vendorSlug}/${slug}/call`, { tool: 'echo', sessionId })).status).toBe(200);
    const ticket = await buyer.call('POST', '/v1/downloads', { releaseId: earlier.releaseId });
    expect(ticket.status).toBe(200);
    const link = onThisApp((await json(ticket)).url);

    await setVisibility(admin, earlier.listingId, 'private');
    const balance = await balanceOf(buyer);
    const upstream = { calls: service.calls.length, messages: service.messages.length };

    // Its own history stays the buyer's to read, and closing only gives access up.
    expect((await buyer.call('GET', `/v1/network/sessions/${sessionId}`)).status).toBe(200);
    expect((await json(await buyer.call('GET', `/v1/network/sessions/${sessionId}/messages`))).messages).toHaveLength(2);
    // Anything that would reach the vendor's service again is answered as for a service that does not exist.
    const noService = { status: 404, body: { message: 'No live service at this address' } };
    const sent = await buyer.call('POST', `/v1/network/sessions/${sessionId}/messages`, { type: 'quote.request', payload: {} });
    expect({ status: sent.status, body: await json(sent) }).toEqual(noService);
    const called = await buyer.call('POST', `/v1/services/${vendorSlug}/${slug}/call`, { tool: 'echo', sessionId });
    expect({ status: called.status, body: await json(called) }).toEqual(noService);
    // Its download links stop working too: the one already issued and any new one.
    expect((await fetch(link)).status).toBe(404);
    expect((await buyer.call('POST', '/v1/downloads', { releaseId: earlier.releaseId })).status).toBe(404);
    expect(await balanceOf(buyer)).toBe(balance);
    expect({ calls: service.calls.length, messages: service.messages.length }).toEqual(upstream);
    const closed = await buyer.call('POST', `/v1/network/sessions/${sessionId}/close`);
    expect(closed.status).toBe(200);
    expect((await json(await owner.call('GET', `/v1/network/sessions/${sessionId}`))).session.status).toBe('closed');
  });

  it('serves everyone again once public: outsiders see, call and open sessions', async () => {
    await setVisibility(owner, listingId, 'public');
    expect((await outsider.call('GET', `/v1/listings/${vendorSlug}/${listingSlug}`)).status).toBe(200);
    const found = await json(await outsider.call('GET', `/v1/search?q=${encodeURIComponent('Secret package')}`));
    expect(JSON.stringify(found)).toContain(listingId);
    expect((await outsider.call('POST', `/v1/services/${vendorSlug}/${listingSlug}/call`, { tool: 'echo' })).status).toBe(200);
    expect((await outsider.call('POST', '/v1/network/sessions', { vendor: vendorSlug, slug: listingSlug })).status).toBe(201);
  });
});
