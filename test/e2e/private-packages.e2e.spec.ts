import { randomUUID } from 'node:crypto';
import { Caller, newCaller } from '../support/accounts';
import { startTestApp, TestApp } from '../support/app';
import { CatalogSeed } from '../support/catalog-seed';
import { json } from '../support/http';
import { addMember, createOrg } from '../support/orgs';

describe('private packages: an org vendor profile, visibility, and nothing revealed to outsiders', () => {
  let app: TestApp;
  let seed: CatalogSeed;
  let owner: Caller;
  let member: Caller;
  let outsider: Caller;
  let orgSlug: string;
  const vendorSlug = `team-shop-${randomUUID().slice(0, 8)}`;
  const listingSlug = `secret-pkg-${randomUUID().slice(0, 8)}`;
  let listingId: string;
  let releaseId: string;

  beforeAll(async () => {
    app = await startTestApp();
    seed = await CatalogSeed.for(app);
    [owner, member, outsider] = await Promise.all([newCaller(app), newCaller(app), newCaller(app)]);
    ({ slug: orgSlug } = await createOrg(owner));
    await addMember(app, owner, orgSlug, member, 'member');
    const profile = await owner.call('POST', '/v1/vendor/profile', { slug: vendorSlug, displayName: 'Team Shop', orgSlug });
    expect(profile.status).toBe(201);
    ({ listingId, releaseId } = await seed.listing({
      vendor: { id: owner.userId, slug: vendorSlug },
      slug: listingSlug,
      title: 'Secret package',
      priceCents: 0,
    }));
  });
  afterAll(() => app.close());

  it('links a vendor profile only for an org admin or owner; a non-member gets 404', async () => {
    const asMember = await member.call('POST', '/v1/vendor/profile', {
      slug: `m-${randomUUID().slice(0, 8)}`,
      displayName: 'Member shop',
      orgSlug,
    });
    expect(asMember.status).toBe(403);
    const asOutsider = await outsider.call('POST', '/v1/vendor/profile', {
      slug: `o-${randomUUID().slice(0, 8)}`,
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

  it('walks every public GET route as an outsider and anonymously: nothing reveals the private package; a member sees it', async () => {
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
    expect((await outsider.call('GET', `/v1/listings/${vendorSlug}/${listingSlug}`)).status).toBe(404);
    expect((await outsider.call('GET', `/v1/listings/${vendorSlug}/${listingSlug}/releases`)).status).toBe(404);
    expect((await outsider.call('GET', `/v1/listings/${vendorSlug}/${listingSlug}/reviews`)).status).toBe(404);
    expect((await outsider.call('POST', '/v1/purchases', { listingId })).status).toBe(404);
    expect((await outsider.call('POST', '/v1/downloads', { releaseId })).status).toBe(404);

    // Members see it, by address, with its releases and reviews.
    expect((await member.call('GET', `/v1/listings/${vendorSlug}/${listingSlug}`)).status).toBe(200);
    expect((await member.call('GET', `/v1/listings/${vendorSlug}/${listingSlug}/releases`)).status).toBe(200);
    expect((await member.call('GET', `/v1/listings/${vendorSlug}/${listingSlug}/reviews`)).status).toBe(200);

    // Public again: outsiders see it.
    await owner.call('PATCH', `/v1/orgs/${orgSlug}/packages/${listingId}`, { visibility: 'public' });
    expect((await outsider.call('GET', `/v1/listings/${vendorSlug}/${listingSlug}`)).status).toBe(200);
    const found = await json(await outsider.call('GET', `/v1/search?q=${encodeURIComponent('Secret package')}`));
    expect(JSON.stringify(found)).toContain(listingId);
  });
});
