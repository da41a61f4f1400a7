import { randomUUID } from 'node:crypto';
import { Caller, callerFor, eventually, newCaller } from '../support/accounts';
import { startTestApp, TestApp } from '../support/app';
import { CatalogSeed, SeedVendor } from '../support/catalog-seed';
import { json } from '../support/http';
import { createOrg } from '../support/orgs';
import { fundWallet } from '../support/wallet';

/**
 * An agent holding only a token bound to a spend policy tries every way it was
 * found to lift its own limits; each is refused, and its next purchase is still
 * held for approval. Its owner, with an unbound token, may do all of them.
 */
describe('a token bound to a spend policy never lifts its own limits', () => {
  let app: TestApp;
  let seed: CatalogSeed;
  let shop: SeedVendor;

  beforeAll(async () => {
    app = await startTestApp();
    seed = await CatalogSeed.for(app);
    shop = await seed.vendor(`shop-${randomUUID().slice(0, 8)}`);
  });
  afterAll(() => app.close());

  const listing = (priceCents: number) => seed.listing({ vendor: shop, slug: `pkg-${randomUUID().slice(0, 8)}`, priceCents });

  async function ownerAndAgent(rules: Record<string, unknown>): Promise<{ owner: Caller; agent: Caller; policyId: string }> {
    const owner = await newCaller(app);
    await fundWallet(app, owner, 5_000);
    const { id: policyId } = await json(await owner.call('POST', '/v1/policies', { name: 'agent budget', ...rules }));
    const minted = await owner.call('POST', '/v1/auth/tokens', {
      name: 'agent',
      scopes: ['read', 'purchase', 'download', 'sell'],
      policyId,
    });
    expect(minted.status).toBe(201);
    const agent = callerFor(app, owner.userId, (await json(minted)).token);
    await eventually(async () => (await agent.call('GET', '/v1/wallet')).status === 200);
    return { owner, agent, policyId };
  }

  const buy = async (caller: Caller) =>
    caller.call('POST', '/v1/purchases', { listingId: (await listing(700)).listingId, useWallet: true });

  async function expectRefusedAsBound(response: Response, doing: string): Promise<void> {
    expect(response.status).toBe(403);
    expect((await json(response)).message).toBe(
      `A token bound to a spend policy cannot ${doing}: use your own account (a token without a policy, or the web app)`,
    );
  }

  async function expectHeldForApproval(agent: Caller): Promise<void> {
    const answer = await buy(agent);
    expect(answer.status).toBe(402);
    expect(await json(answer)).toMatchObject({ status: 'approval_required', rule: 'requireApprovalAboveCents' });
  }

  it('cannot clear a rule of its policy, pause it, delete it or create another', async () => {
    const { owner, agent, policyId } = await ownerAndAgent({ requireApprovalAboveCents: 500 });
    const changing = 'create, change or delete spend policies';
    await expectRefusedAsBound(
      await agent.call('PATCH', `/v1/policies/${policyId}`, { requireApprovalAboveCents: null }),
      changing,
    );
    await expectRefusedAsBound(await agent.call('PATCH', `/v1/policies/${policyId}`, { active: false }), changing);
    await expectRefusedAsBound(await agent.call('DELETE', `/v1/policies/${policyId}`), changing);
    await expectRefusedAsBound(await agent.call('POST', '/v1/policies', { name: 'lax' }), changing);
    await expectHeldForApproval(agent);

    // Nothing changed: the owner still sees the rule, and may change it.
    expect(await json(await owner.call('GET', `/v1/policies`))).toMatchObject({
      policies: [expect.objectContaining({ id: policyId, requireApprovalAboveCents: 500, active: true })],
    });
    expect((await owner.call('PATCH', `/v1/policies/${policyId}`, { requireApprovalAboveCents: null })).status).toBe(200);
    expect((await buy(agent)).status).toBe(200);
  });

  it("cannot create an org's policy, even as the org's owner", async () => {
    const { agent } = await ownerAndAgent({ requireApprovalAboveCents: 500 });
    const org = await createOrg(agent);
    await expectRefusedAsBound(
      await agent.call('POST', `/v1/orgs/${org.slug}/policies`, { name: 'lax org' }),
      'create, change or delete spend policies',
    );
  });

  it('mints only tokens bound to its own policy: by default, and never to another policy or none', async () => {
    const { owner, agent, policyId } = await ownerAndAgent({ requireApprovalAboveCents: 500 });
    const child = await agent.call('POST', '/v1/auth/tokens', { name: 'child', scopes: ['purchase'] });
    expect(child.status).toBe(201);
    const minted = await json(child);
    expect(minted).toMatchObject({ policyId, policyName: 'agent budget' });
    await expectHeldForApproval(callerFor(app, owner.userId, minted.token));

    const same = await agent.call('POST', '/v1/auth/tokens', { name: 'same', scopes: ['read'], policyId });
    expect(same.status).toBe(201);

    const { id: laxId } = await json(await owner.call('POST', '/v1/policies', { name: 'lax' }));
    await expectRefusedAsBound(
      await agent.call('POST', '/v1/auth/tokens', { name: 'escape', scopes: ['purchase'], policyId: laxId }),
      'create a token bound to another spend policy, or to none',
    );
    // Null is not "none": it is refused as malformed, like any null the schema does not allow.
    const nulled = await agent.call('POST', '/v1/auth/tokens', { name: 'escape', scopes: ['purchase'], policyId: null });
    expect(nulled.status).toBe(400);
    expect((await json(nulled)).message).toContain('policyId');

    // The owner's own token still mints unbound tokens and binds to any of its policies.
    const unbound = await json(await owner.call('POST', '/v1/auth/tokens', { name: 'free', scopes: ['read'] }));
    expect(unbound.policyId).toBeNull();
    expect((await owner.call('POST', '/v1/auth/tokens', { name: 'lax', scopes: ['read'], policyId: laxId })).status).toBe(201);
  });

  it('cannot approve a device sign-in (which would issue a token outside its policy)', async () => {
    const { owner, agent } = await ownerAndAgent({ requireApprovalAboveCents: 500 });
    const started = await json(await fetch(`${app.url}/v1/auth/device/start`, { method: 'POST' }));
    await expectRefusedAsBound(
      await agent.call('POST', '/v1/auth/device/approve', { userCode: started.userCode }),
      'approve device sign-ins',
    );
    const poll = async () =>
      json(
        await fetch(`${app.url}/v1/auth/device/poll`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ deviceCode: started.deviceCode }),
        }),
      );
    expect(await poll()).toEqual({ status: 'authorization_pending' });
    // Still undecided, so its owner may approve it.
    expect((await owner.call('POST', '/v1/auth/device/approve', { userCode: started.userCode })).status).toBe(200);
  });

  it('cannot approve or decline what its policy held back', async () => {
    const { owner, agent } = await ownerAndAgent({ requireApprovalAboveCents: 500 });
    const held = await json(await buy(agent));
    const approvalId = held.approvalUrl.split('/').pop();
    await expectRefusedAsBound(await agent.call('POST', `/v1/approvals/${approvalId}/approve`), 'approve or decline purchases');
    await expectRefusedAsBound(await agent.call('POST', `/v1/approvals/${approvalId}/decline`), 'approve or decline purchases');
    expect((await owner.call('POST', `/v1/approvals/${approvalId}/approve`)).status).toBe(200);
  });

  it('refuses a null expiry, which the schema does not allow', async () => {
    const owner = await newCaller(app);
    const response = await owner.call('POST', '/v1/auth/tokens', { name: 'x', scopes: ['read'], expiresInDays: null });
    expect(response.status).toBe(400);
    expect((await json(response)).message).toContain('expiresInDays');
  });
});
