import { randomUUID } from 'node:crypto';
import { Caller, newCaller } from '../support/accounts';
import { startTestApp, TestApp } from '../support/app';
import { json } from '../support/http';

describe('spend policy endpoints', () => {
  let app: TestApp;
  let alice: Caller;
  let bob: Caller;

  beforeAll(async () => {
    app = await startTestApp();
    alice = await newCaller(app);
    bob = await newCaller(app, ['read']);
  });
  afterAll(async () => app?.close());

  it('creates a policy with defaults (201), lists it newest first, and shows exactly the spec fields', async () => {
    const first = await alice.call('POST', '/v1/policies', { name: 'First' });
    expect(first.status).toBe(201);
    const created = await json(first);
    expect(created).toEqual({
      id: expect.any(String),
      name: 'First',
      maxPerPurchaseCents: null,
      dailyLimitCents: null,
      monthlyLimitCents: null,
      requireApprovalAboveCents: null,
      vendorAllowlist: [],
      blockedTypes: [],
      active: true,
      createdAt: expect.any(String),
    });

    const second = await json(
      await alice.call('POST', '/v1/policies', {
        name: '  Agents 🤖 ',
        maxPerPurchaseCents: 2_000,
        dailyLimitCents: 5_000,
        monthlyLimitCents: 50_000,
        requireApprovalAboveCents: 1_000,
        vendorAllowlist: ['acme', 'beta-tools', 'acme'],
        blockedTypes: ['mcp', 'mcp', 'bundle'],
        active: false,
      }),
    );
    expect(second).toMatchObject({
      name: 'Agents 🤖',
      maxPerPurchaseCents: 2_000,
      dailyLimitCents: 5_000,
      monthlyLimitCents: 50_000,
      requireApprovalAboveCents: 1_000,
      vendorAllowlist: ['acme', 'beta-tools'],
      blockedTypes: ['mcp', 'bundle'],
      active: false,
    });

    const list = await alice.call('GET', '/v1/policies');
    expect(list.status).toBe(200);
    const { policies } = await json(list);
    expect(policies.map((p: { id: string }) => p.id)).toEqual([second.id, created.id]);
    expect(policies[0]).toEqual(second);
  });

  it('refuses bad input with a 400 naming the field', async () => {
    const cases: [unknown, string][] = [
      [{}, 'name'],
      [{ name: '' }, 'name'],
      [{ name: '   ' }, 'name'],
      [{ name: 'x'.repeat(129) }, 'name'],
      [{ name: 'two\nlines' }, 'name'],
      [{ name: 'esc \u001b[31m' }, 'name'],
      [{ name: 'ok', maxPerPurchaseCents: -1 }, 'maxPerPurchaseCents'],
      [{ name: 'ok', dailyLimitCents: 10.5 }, 'dailyLimitCents'],
      [{ name: 'ok', monthlyLimitCents: '100' }, 'monthlyLimitCents'],
      [{ name: 'ok', requireApprovalAboveCents: 1e20 }, 'requireApprovalAboveCents'],
      [{ name: 'ok', vendorAllowlist: ['Not A Slug'] }, 'vendorAllowlist'],
      [{ name: 'ok', vendorAllowlist: 'acme' }, 'vendorAllowlist'],
      [{ name: 'ok', vendorAllowlist: Array.from({ length: 101 }, (_, i) => `vendor-${i}`) }, 'vendorAllowlist'],
      [{ name: 'ok', blockedTypes: ['mcp_server'] }, 'blockedTypes'],
      [{ name: 'ok', active: 'yes' }, 'active'],
      [{ name: 'ok', active: null }, 'active'],
      [{ name: 'ok', colour: 'red' }, 'colour'],
    ];
    for (const [body, field] of cases) {
      const response = await alice.call('POST', '/v1/policies', body);
      expect({ body, status: response.status }).toEqual({ body, status: 400 });
      expect((await json(response)).message).toContain(field);
    }
  });

  it('updates any subset (200, the whole policy): null clears a money rule and is a 400 elsewhere', async () => {
    const policy = await json(
      await alice.call('POST', '/v1/policies', {
        name: 'Patchable',
        dailyLimitCents: 1_000,
        maxPerPurchaseCents: 500,
        vendorAllowlist: ['acme'],
      }),
    );
    const patched = await alice.call('PATCH', `/v1/policies/${policy.id}`, {
      dailyLimitCents: null,
      monthlyLimitCents: 9_000,
      blockedTypes: ['template'],
    });
    expect(patched.status).toBe(200);
    expect(await json(patched)).toEqual({
      ...policy,
      dailyLimitCents: null,
      monthlyLimitCents: 9_000,
      blockedTypes: ['template'],
    });

    const renamed = await json(await alice.call('PATCH', `/v1/policies/${policy.id}`, { name: 'Renamed', active: false }));
    expect(renamed).toMatchObject({ name: 'Renamed', active: false, maxPerPurchaseCents: 500, vendorAllowlist: ['acme'] });
    expect(await json(await alice.call('PATCH', `/v1/policies/${policy.id}`, {}))).toEqual(renamed);

    for (const [body, field] of [
      [{ name: null }, 'name'],
      [{ vendorAllowlist: null }, 'vendorAllowlist'],
      [{ blockedTypes: null }, 'blockedTypes'],
      [{ active: null }, 'active'],
      [{ dailyLimitCents: -5 }, 'dailyLimitCents'],
    ] as const) {
      const response = await alice.call('PATCH', `/v1/policies/${policy.id}`, body);
      expect(response.status).toBe(400);
      expect((await json(response)).message).toContain(field);
    }
    const { policies } = await json(await alice.call('GET', '/v1/policies'));
    expect(policies.find((p: { id: string }) => p.id === policy.id)).toEqual(renamed);
  });

  it("answers 404 for another user's policy and for unknown ids, and never shows it to them", async () => {
    const policy = await json(await alice.call('POST', '/v1/policies', { name: "Alice's" }));
    expect((await bob.call('PATCH', `/v1/policies/${policy.id}`, { name: 'Mine now' })).status).toBe(404);
    expect((await bob.call('DELETE', `/v1/policies/${policy.id}`)).status).toBe(404);
    expect((await json(await bob.call('GET', '/v1/policies'))).policies).toEqual([]);
    expect((await alice.call('PATCH', `/v1/policies/${randomUUID()}`, { name: 'x' })).status).toBe(404);
    expect((await alice.call('PATCH', '/v1/policies/not-a-uuid', { name: 'x' })).status).toBe(404);
    expect((await alice.call('DELETE', '/v1/policies/not-a-uuid')).status).toBe(404);
    // Untouched by the attempts.
    const mine = (await json(await alice.call('GET', '/v1/policies'))).policies.find((p: { id: string }) => p.id === policy.id);
    expect(mine.name).toBe("Alice's");
  });

  it('deletes a policy: {ok:true}, gone from the list, and 404 afterwards', async () => {
    const policy = await json(await alice.call('POST', '/v1/policies', { name: 'Doomed' }));
    const deleted = await alice.call('DELETE', `/v1/policies/${policy.id}`);
    expect(deleted.status).toBe(200);
    expect(await json(deleted)).toEqual({ ok: true });
    const ids = (await json(await alice.call('GET', '/v1/policies'))).policies.map((p: { id: string }) => p.id);
    expect(ids).not.toContain(policy.id);
    expect((await alice.call('DELETE', `/v1/policies/${policy.id}`)).status).toBe(404);
    expect((await alice.call('PATCH', `/v1/policies/${policy.id}`, { name: 'Back' })).status).toBe(404);
  });

  it('needs a token, of any scope', async () => {
    expect((await fetch(`${app.url}/v1/policies`)).status).toBe(401);
    expect((await bob.call('POST', '/v1/policies', { name: 'Read-only token' })).status).toBe(201);
  });
});
