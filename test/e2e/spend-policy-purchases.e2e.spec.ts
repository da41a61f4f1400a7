import { randomUUID } from 'node:crypto';
import { EventStore } from '../../src/event-store/event-store';
import { decideOnStream } from '../../src/event-store/fold-stream';
import { listingDecider, listingStreamId } from '../../src/modules/catalog/domain/listing.decider';
import { ManualClock } from '../../src/platform/clock/clock';
import { Caller, callerFor, eventually, newCaller } from '../support/accounts';
import { startTestApp, TestApp } from '../support/app';
import { CatalogSeed, SeedVendor } from '../support/catalog-seed';
import { json } from '../support/http';
import { fundWallet } from '../support/wallet';

describe('purchases under spend policies, and their approvals', () => {
  const clock = new ManualClock(new Date());
  let app: TestApp;
  let seed: CatalogSeed;
  let shop: SeedVendor;
  let elsewhere: SeedVendor;

  beforeAll(async () => {
    app = await startTestApp({ clock });
    seed = await CatalogSeed.for(app);
    shop = await seed.vendor(`shop-${randomUUID().slice(0, 8)}`);
    elsewhere = await seed.vendor(`else-${randomUUID().slice(0, 8)}`);
  });
  afterAll(() => app.close());

  const listing = (priceCents: number, vendor = shop, type = 'skill') =>
    seed.listing({ vendor, slug: `pkg-${randomUUID().slice(0, 8)}`, priceCents, type });

  /** An owner with a funded wallet, and an agent token bound to a new policy of theirs. */
  async function ownerAndAgent(
    rules: Record<string, unknown>,
    fundCents = 5_000,
  ): Promise<{ owner: Caller; agent: Caller; policyId: string }> {
    const owner = await newCaller(app);
    if (fundCents) await fundWallet(app, owner, fundCents);
    const created = await owner.call('POST', '/v1/policies', { name: 'agent budget', ...rules });
    expect(created.status).toBe(201);
    const { id: policyId } = await json(created);
    const minted = await owner.call('POST', '/v1/auth/tokens', { name: 'agent', scopes: ['purchase', 'read'], policyId });
    expect(minted.status).toBe(201);
    const agent = callerFor(app, owner.userId, (await json(minted)).token);
    await eventually(async () => (await agent.call('GET', '/v1/wallet')).status === 200);
    return { owner, agent, policyId };
  }

  const buy = (caller: Caller, listingId: string, headers?: Record<string, string>) =>
    caller.call('POST', '/v1/purchases', { listingId, useWallet: true }, headers);

  async function expectApproval(answer: Response, rule: string): Promise<string> {
    expect(answer.status).toBe(402);
    const body = await json(answer);
    expect(body).toMatchObject({ status: 'approval_required', rule, reason: expect.any(String) });
    const prefix = `${app.server.config.webUrl}/approvals/`;
    expect(body.approvalUrl.startsWith(prefix)).toBe(true);
    return body.approvalUrl.slice(prefix.length);
  }

  it('maxPerPurchaseCents: above it asks for approval, at or below buys', async () => {
    const { agent } = await ownerAndAgent({ maxPerPurchaseCents: 500 });
    await expectApproval(await buy(agent, (await listing(600)).listingId), 'maxPerPurchaseCents');
    expect((await buy(agent, (await listing(500)).listingId)).status).toBe(200);
  });

  it('requireApprovalAboveCents asks for approval above the threshold', async () => {
    const { agent } = await ownerAndAgent({ requireApprovalAboveCents: 300 });
    await expectApproval(await buy(agent, (await listing(301)).listingId), 'requireApprovalAboveCents');
    expect((await buy(agent, (await listing(300)).listingId)).status).toBe(200);
  });

  it('dailyLimitCents and monthlyLimitCents count this purchase with the spend already made', async () => {
    const daily = await ownerAndAgent({ dailyLimitCents: 1_000 });
    expect((await buy(daily.agent, (await listing(600)).listingId)).status).toBe(200);
    await expectApproval(await buy(daily.agent, (await listing(500)).listingId), 'dailyLimitCents');
    expect((await buy(daily.agent, (await listing(400)).listingId)).status).toBe(200);
    const monthly = await ownerAndAgent({ monthlyLimitCents: 700 });
    expect((await buy(monthly.agent, (await listing(700)).listingId)).status).toBe(200);
    await expectApproval(await buy(monthly.agent, (await listing(1)).listingId), 'monthlyLimitCents');
  });

  it('never lets concurrent purchases jointly pass a daily limit', async () => {
    const { agent, owner } = await ownerAndAgent({ dailyLimitCents: 1_000 }, 10_000);
    const listings = await Promise.all(Array.from({ length: 8 }, () => listing(300)));
    const answers = await Promise.all(listings.map(({ listingId }) => buy(agent, listingId)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(3);
    expect(answers.filter((a) => a.status === 402)).toHaveLength(5);
    expect((await json(await owner.call('GET', '/v1/wallet'))).balanceCents).toBe(10_000 - 900);
  });

  it('vendorAllowlist and blockedTypes apply to free listings too', async () => {
    const allow = await ownerAndAgent({ vendorAllowlist: [elsewhere.slug] }, 0);
    await expectApproval(await buy(allow.agent, (await listing(0)).listingId), 'vendorAllowlist');
    expect((await buy(allow.agent, (await listing(0, elsewhere)).listingId)).status).toBe(200);
    const blocked = await ownerAndAgent({ blockedTypes: ['rule'] }, 0);
    await expectApproval(await buy(blocked.agent, (await listing(0, shop, 'rule')).listingId), 'blockedTypes');
    expect((await buy(blocked.agent, (await listing(0, shop, 'skill')).listingId)).status).toBe(200);
  });

  it('an inactive policy enforces nothing; a deleted one fails closed', async () => {
    const inactive = await ownerAndAgent({ maxPerPurchaseCents: 1, active: false });
    expect((await buy(inactive.agent, (await listing(900)).listingId)).status).toBe(200);
    const deleted = await ownerAndAgent({ maxPerPurchaseCents: 100_000 });
    expect((await deleted.owner.call('DELETE', `/v1/policies/${deleted.policyId}`)).status).toBe(200);
    await expectApproval(await buy(deleted.agent, (await listing(0)).listingId), 'policyMissing');
  });

  it('the owner approves once: the purchase executes on the asked terms, a bound token may not approve', async () => {
    const { owner, agent } = await ownerAndAgent({ maxPerPurchaseCents: 100 });
    const { listingId } = await listing(700);
    const approvalId = await expectApproval(await buy(agent, listingId), 'maxPerPurchaseCents');
    const pending = await json(await owner.call('GET', '/v1/approvals'));
    expect(pending.approvals).toEqual([
      expect.objectContaining({ id: approvalId, status: 'pending', listingId, priceCents: 700, tokenName: 'agent' }),
    ]);
    expect((await agent.call('POST', `/v1/approvals/${approvalId}/approve`)).status).toBe(403);
    expect((await agent.call('POST', `/v1/approvals/${approvalId}/decline`)).status).toBe(403);
    const stranger = await newCaller(app);
    expect((await stranger.call('POST', `/v1/approvals/${approvalId}/approve`)).status).toBe(404);
    expect((await stranger.call('GET', `/v1/approvals/${approvalId}`)).status).toBe(404);

    const approvals = await Promise.all([1, 2, 3].map(() => owner.call('POST', `/v1/approvals/${approvalId}/approve`)));
    const statuses = approvals.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    const bought = await json(approvals.find((a) => a.status === 200)!);
    expect(bought).toMatchObject({ status: 'purchased', amountCents: 700 });
    expect((await json(await owner.call('GET', `/v1/approvals/${approvalId}`))).status).toBe('approved');
    expect((await owner.call('POST', `/v1/approvals/${approvalId}/approve`)).status).toBe(409);
    expect((await json(await owner.call('GET', '/v1/orders'))).orders).toHaveLength(1);
    expect((await json(await owner.call('GET', '/v1/wallet'))).balanceCents).toBe(5_000 - 700);
  });

  it('declines, refuses a price that rose, and expires after 24 hours', async () => {
    const { owner, agent } = await ownerAndAgent({ maxPerPurchaseCents: 100 });
    const declined = await expectApproval(await buy(agent, (await listing(700)).listingId), 'maxPerPurchaseCents');
    expect((await owner.call('POST', `/v1/approvals/${declined}/decline`)).status).toBe(200);
    expect((await owner.call('POST', `/v1/approvals/${declined}/approve`)).status).toBe(409);

    const pricey = await listing(700);
    const rose = await expectApproval(await buy(agent, pricey.listingId), 'maxPerPurchaseCents');
    await decideOnStream(app.server.app.get(EventStore), listingStreamId(pricey.listingId), listingDecider, {
      type: 'UpdateListing',
      vendorId: shop.id,
      changes: { priceCents: 900 },
      now: clock.now(),
    });
    const refused = await owner.call('POST', `/v1/approvals/${rose}/approve`);
    expect(refused.status).toBe(409);
    expect((await json(refused)).message).toMatch(/700.*900/);

    const stale = await expectApproval(await buy(agent, (await listing(700)).listingId), 'maxPerPurchaseCents');
    clock.advance(24 * 3_600_000 + 1_000);
    expect((await owner.call('POST', `/v1/approvals/${stale}/approve`)).status).toBe(409);
    expect((await json(await owner.call('GET', '/v1/approvals'))).approvals.map((a: { id: string }) => a.id)).not.toContain(
      stale,
    );
    expect((await json(await owner.call('GET', `/v1/approvals/${stale}`))).status).toBe('expired');
  });
});
