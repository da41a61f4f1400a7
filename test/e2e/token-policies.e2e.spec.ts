import { randomUUID } from 'node:crypto';
import { Caller, callerFor, newCaller } from '../support/accounts';
import { startTestApp, TestApp } from '../support/app';
import { json } from '../support/http';
import { AccessFeatureModule } from '../support/whoami-feature';

describe('tokens bound to spend policies', () => {
  let app: TestApp;
  let alice: Caller;
  let bob: Caller;

  beforeAll(async () => {
    app = await startTestApp({ features: [AccessFeatureModule] });
    alice = await newCaller(app);
    bob = await newCaller(app);
  });
  afterAll(async () => app?.close());

  const newPolicy = async (caller: Caller, body: Record<string, unknown>) => {
    const response = await caller.call('POST', '/v1/policies', body);
    expect(response.status).toBe(201);
    return json(response);
  };
  const listed = async (caller: Caller, tokenId: string) =>
    (await json(await caller.call('GET', '/v1/auth/tokens'))).tokens.find((t: { id: string }) => t.id === tokenId);

  it('binds a new token to one of the caller’s policies: shown on creation and in the list, carried by the principal', async () => {
    const policy = await newPolicy(alice, { name: 'Agent budget', dailyLimitCents: 1_000 });
    const created = await alice.call('POST', '/v1/auth/tokens', { name: 'agent', scopes: ['purchase'], policyId: policy.id });
    expect(created.status).toBe(201);
    const token = await json(created);
    expect(token).toMatchObject({ policyId: policy.id, policyName: 'Agent budget' });

    expect(await listed(alice, token.id)).toMatchObject({ policyId: policy.id, policyName: 'Agent budget' });
    // The guard's principal carries the binding, for purchases to enforce.
    const principal = await json(await callerFor(app, alice.userId, token.token).call('GET', '/test/access/any'));
    expect(principal).toMatchObject({ tokenId: token.id, policyId: policy.id });
    const unbound = await json(await alice.call('GET', '/test/access/any'));
    expect(unbound.policyId).toBeNull();
  });

  it('follows a renamed policy, and binds to an inactive one', async () => {
    const policy = await newPolicy(alice, { name: 'Before', active: false });
    const token = await json(
      await alice.call('POST', '/v1/auth/tokens', { name: 'paused', scopes: ['read'], policyId: policy.id }),
    );
    expect(token.policyName).toBe('Before');
    expect((await alice.call('PATCH', `/v1/policies/${policy.id}`, { name: 'After' })).status).toBe(200);
    expect(await listed(alice, token.id)).toMatchObject({ policyId: policy.id, policyName: 'After' });
  });

  it("refuses another user's, a deleted and an unknown policy with 422 Unknown spend policy", async () => {
    const bobs = await newPolicy(bob, { name: "Bob's" });
    const deleted = await newPolicy(alice, { name: 'Deleted' });
    expect((await alice.call('DELETE', `/v1/policies/${deleted.id}`)).status).toBe(200);
    for (const policyId of [bobs.id, deleted.id, randomUUID()]) {
      const response = await alice.call('POST', '/v1/auth/tokens', { name: 'x', scopes: ['read'], policyId });
      expect(response.status).toBe(422);
      expect((await json(response)).message).toBe('Unknown spend policy');
    }
    const malformed = await alice.call('POST', '/v1/auth/tokens', { name: 'x', scopes: ['read'], policyId: 'nope' });
    expect(malformed.status).toBe(400);
    expect((await json(malformed)).message).toContain('policyId');
  });

  it('keeps a deleted policy’s tokens bound, with policyName null', async () => {
    const policy = await newPolicy(alice, { name: 'Short-lived' });
    const token = await json(
      await alice.call('POST', '/v1/auth/tokens', { name: 'orphan', scopes: ['purchase'], policyId: policy.id }),
    );
    expect((await alice.call('DELETE', `/v1/policies/${policy.id}`)).status).toBe(200);
    expect(await listed(alice, token.id)).toMatchObject({ policyId: policy.id, policyName: null });
    // Still bound: purchases made with it fail closed.
    const principal = await json(await callerFor(app, alice.userId, token.token).call('GET', '/test/access/any'));
    expect(principal.policyId).toBe(policy.id);
  });
});
