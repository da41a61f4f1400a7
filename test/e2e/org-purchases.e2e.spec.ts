import { randomUUID } from 'node:crypto';
import { Caller, newCaller } from '../support/accounts';
import { startTestApp, TestApp } from '../support/app';
import { CatalogSeed, SeedVendor } from '../support/catalog-seed';
import { json } from '../support/http';
import { addMember, createOrg, fundOrgWallet } from '../support/orgs';
import { fundWallet } from '../support/wallet';

describe('purchases for an org: the org wallet pays, the org holds the entitlement, org policies apply', () => {
  let app: TestApp;
  let seed: CatalogSeed;
  let vendor: SeedVendor;
  let owner: Caller;
  let member: Caller;
  let outsider: Caller;
  let slug: string;

  beforeAll(async () => {
    app = await startTestApp();
    seed = await CatalogSeed.for(app);
    vendor = await seed.vendor(`shop-${randomUUID().slice(0, 8)}`, { displayName: 'The Shop' });
    [owner, member, outsider] = await Promise.all([newCaller(app), newCaller(app), newCaller(app)]);
    ({ slug } = await createOrg(owner));
    await addMember(app, owner, slug, member, 'member');
    await fundOrgWallet(app, owner, slug, 5000);
  });
  afterAll(() => app.close());

  const listing = (priceCents: number, extra: Record<string, unknown> = {}) =>
    seed.listing({ vendor, slug: `pkg-${randomUUID().slice(0, 8)}`, title: 'A package', priceCents, ...extra });
  const orgBalance = async () => (await json(await owner.call('GET', `/v1/orgs/${slug}/wallet`))).balanceCents;

  it('debits the org wallet and entitles every member; a second purchase by any member is already_owned', async () => {
    const { listingId, releaseId } = await listing(700);
    const before = await orgBalance();
    const answer = await member.call('POST', '/v1/purchases', { listingId, orgSlug: slug });
    expect(answer.status).toBe(200);
    const bought = await json(answer);
    expect(bought).toMatchObject({ status: 'purchased', amountCents: 700, walletBalanceCents: before - 700 });
    expect(await orgBalance()).toBe(before - 700);
    expect((await json(await member.call('GET', '/v1/wallet'))).balanceCents).toBe(0);
    const { transactions } = await json(await owner.call('GET', `/v1/orgs/${slug}/wallet/transactions`));
    expect(transactions[0]).toMatchObject({ type: 'purchase', amountCents: -700 });

    // Every member is entitled: the owner sees it, can download it, and buying again is already_owned.
    expect((await owner.call('GET', `/v1/entitlements/${listingId}`)).status).toBe(200);
    expect((await json(await owner.call('GET', '/v1/entitlements'))).entitlements).toContainEqual(
      expect.objectContaining({ listingId, id: bought.entitlementId }),
    );
    expect((await owner.call('POST', '/v1/downloads', { releaseId })).status).toBe(200);
    expect(await json(await owner.call('POST', '/v1/purchases', { listingId, orgSlug: slug }))).toEqual({
      status: 'already_owned',
      entitlementId: bought.entitlementId,
    });
    // Buying for oneself what one's org owns is already_owned too, and charges nothing.
    await fundWallet(app, owner, 1000);
    expect(await json(await owner.call('POST', '/v1/purchases', { listingId, useWallet: true }))).toEqual({
      status: 'already_owned',
      entitlementId: bought.entitlementId,
    });
    expect((await json(await owner.call('GET', '/v1/wallet'))).balanceCents).toBe(1000);

    // An outsider is not entitled, cannot buy for the org, and cannot download.
    expect((await outsider.call('GET', `/v1/entitlements/${listingId}`)).status).toBe(404);
    expect((await outsider.call('POST', '/v1/purchases', { listingId, orgSlug: slug })).status).toBe(404);
    expect((await outsider.call('POST', '/v1/downloads', { releaseId })).status).toBe(403);
  });

  it('answers 402 insufficient_balance when the org wallet cannot pay; the same key for another org is another request', async () => {
    const { listingId } = await listing(100_000);
    const headers = { 'idempotency-key': `org-buy-${randomUUID()}` };
    const refused = await member.call('POST', '/v1/purchases', { listingId, orgSlug: slug }, headers);
    expect(refused.status).toBe(402);
    const { slug: other } = await createOrg(owner);
    // The same key for another org is another request.
    expect((await owner.call('POST', '/v1/purchases', { listingId, orgSlug: other }, headers)).status).toBe(402);
  });

  it('replays a retried org purchase with its key, once', async () => {
    const { listingId } = await listing(300);
    const headers = { 'idempotency-key': `org-buy-${randomUUID()}` };
    const before = await orgBalance();
    const results = await Promise.all(
      Array.from({ length: 5 }, () => member.call('POST', '/v1/purchases', { listingId, orgSlug: slug }, headers)),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(1);
    expect(statuses.every((s) => s === 200 || s === 409)).toBe(true);
    const again = await member.call('POST', '/v1/purchases', { listingId, orgSlug: slug }, headers);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await orgBalance()).toBe(before - 300);
  });

  it("applies the org's active policies instead of the token's, and lists and creates them for members and admins", async () => {
    expect(await json(await member.call('GET', `/v1/orgs/${slug}/policies`))).toEqual({ policies: [] });
    expect((await member.call('POST', `/v1/orgs/${slug}/policies`, { name: 'Cap' })).status).toBe(403);
    expect((await outsider.call('GET', `/v1/orgs/${slug}/policies`)).status).toBe(404);
    const created = await owner.call('POST', `/v1/orgs/${slug}/policies`, { name: 'Cap', maxPerPurchaseCents: 500 });
    expect(created.status).toBe(201);
    expect(await json(created)).toMatchObject({ name: 'Cap', maxPerPurchaseCents: 500, active: true });
    expect((await json(await member.call('GET', `/v1/orgs/${slug}/policies`))).policies).toHaveLength(1);

    const { listingId: dear } = await listing(800);
    // A personal policy on the token would allow it: the org's policy decides for org purchases.
    const refused = await member.call('POST', '/v1/purchases', { listingId: dear, orgSlug: slug });
    expect(refused.status).toBe(402);
    const asked = await json(refused);
    expect(asked).toMatchObject({ status: 'approval_required', rule: expect.any(String), approvalUrl: expect.any(String) });
    const approvalId = asked.approvalUrl.split('/approvals/')[1];
    const { listingId: cheap } = await listing(400);
    expect((await member.call('POST', '/v1/purchases', { listingId: cheap, orgSlug: slug })).status).toBe(200);

    // The org's approvals go to its admins and owners, not to the member who asked.
    expect((await json(await member.call('GET', '/v1/approvals'))).approvals).toEqual([]);
    expect((await member.call('POST', `/v1/approvals/${approvalId}/approve`)).status).toBe(404);
    expect((await json(await owner.call('GET', '/v1/approvals'))).approvals).toContainEqual(
      expect.objectContaining({ id: approvalId }),
    );
    const before = await orgBalance();
    const approved = await owner.call('POST', `/v1/approvals/${approvalId}/approve`);
    expect(approved.status).toBe(200);
    expect(await json(approved)).toMatchObject({ status: 'purchased', amountCents: 800 });
    expect(await orgBalance()).toBe(before - 800);
    // Bought for the org: the member who asked is entitled through it, and its personal wallet was not touched.
    expect((await member.call('GET', `/v1/entitlements/${dear}`)).status).toBe(200);
    expect((await json(await member.call('GET', '/v1/wallet'))).balanceCents).toBe(0);
  });
});
