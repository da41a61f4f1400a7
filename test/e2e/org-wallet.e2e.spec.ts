import { randomUUID } from 'node:crypto';
import { CommandBus } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { DebitWalletCommand } from '../../src/modules/wallet/commands/debit-wallet/debit-wallet.command';
import { orgWallet } from '../../src/modules/orgs/domain/org-owner';
import { Caller, eventually, newCaller } from '../support/accounts';
import { startTestApp, TestApp } from '../support/app';
import { json } from '../support/http';
import { addMember, createOrg, fundOrgWallet } from '../support/orgs';
import { settleSandboxIntent } from '../support/wallet';

describe('the org wallet', () => {
  let app: TestApp;
  let owner: Caller;
  let admin: Caller;
  let member: Caller;
  let outsider: Caller;
  let slug: string;
  let orgId: string;

  beforeAll(async () => {
    app = await startTestApp();
    [owner, admin, member, outsider] = await Promise.all([newCaller(app), newCaller(app), newCaller(app), newCaller(app)]);
    ({ slug, id: orgId } = await createOrg(owner));
    await addMember(app, owner, slug, admin, 'admin');
    await addMember(app, owner, slug, member, 'member');
  });
  afterAll(() => app.close());

  it('is funded by admins and owners, read by members, and hidden from outsiders', async () => {
    expect(await json(await member.call('GET', `/v1/orgs/${slug}/wallet`))).toEqual({
      balanceCents: 0,
      autoTopUpEnabled: false,
      autoTopUpThresholdCents: 500,
      autoTopUpAmountCents: 2000,
    });
    await fundOrgWallet(app, admin, slug, 2500);
    await fundOrgWallet(app, owner, slug, 1000);
    expect((await json(await member.call('GET', `/v1/orgs/${slug}/wallet`))).balanceCents).toBe(3500);
    const { transactions } = await json(await member.call('GET', `/v1/orgs/${slug}/wallet/transactions`));
    expect(transactions.map((t: { type: string; amountCents: number }) => [t.type, t.amountCents])).toEqual([
      ['top_up', 1000],
      ['top_up', 2500],
    ]);
    // The members' personal wallets are untouched.
    expect((await json(await admin.call('GET', '/v1/wallet'))).balanceCents).toBe(0);

    expect((await member.call('POST', `/v1/orgs/${slug}/wallet/top-up`, { amountCents: 1000 })).status).toBe(403);
    expect((await member.call('PATCH', `/v1/orgs/${slug}/wallet/auto-top-up`, { enabled: false })).status).toBe(403);
    for (const [method, path, body] of [
      ['GET', `/v1/orgs/${slug}/wallet`],
      ['GET', `/v1/orgs/${slug}/wallet/transactions`],
      ['POST', `/v1/orgs/${slug}/wallet/top-up`, { amountCents: 1000 }],
      ['PATCH', `/v1/orgs/${slug}/wallet/auto-top-up`, { enabled: false }],
    ] as [string, string, unknown?][]) {
      expect({ path, status: (await outsider.call(method, path, body)).status }).toEqual({ path, status: 404 });
    }
    // As for a personal wallet, auto top-up needs a saved card (of the org's billing customer).
    const configured = await admin.call('PATCH', `/v1/orgs/${slug}/wallet/auto-top-up`, { enabled: true });
    expect((await json(configured)).message).toMatch(/saved payment method/);
    expect(
      await json(await admin.call('PATCH', `/v1/orgs/${slug}/wallet/auto-top-up`, { enabled: false, amountCents: 5000 })),
    ).toEqual({
      autoTopUpEnabled: false,
      autoTopUpThresholdCents: 500,
      autoTopUpAmountCents: 5000,
    });
  });

  it('replays a top-up retried with its Idempotency-Key; the key is the caller’s within the org', async () => {
    const headers = { 'idempotency-key': 'org-top-up-1' };
    const first = await admin.call('POST', `/v1/orgs/${slug}/wallet/top-up`, { amountCents: 700 }, headers);
    expect(first.status).toBe(200);
    const again = await admin.call('POST', `/v1/orgs/${slug}/wallet/top-up`, { amountCents: 700 }, headers);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await json(again)).toEqual(await json(first));
    expect((await admin.call('POST', `/v1/orgs/${slug}/wallet/top-up`, { amountCents: 800 }, headers)).status).toBe(422);
    // The same key on the admin's personal wallet is another request altogether.
    const personal = await admin.call('POST', '/v1/wallet/top-up', { amountCents: 700 }, headers);
    expect(personal.status).toBe(200);
    expect(personal.headers.get('idempotent-replayed')).toBeNull();
  });

  it('refuses to delete the org while its wallet holds money', async () => {
    const refused = await owner.call('DELETE', `/v1/orgs/${slug}`);
    expect(refused.status).toBe(409);
    expect((await json(refused)).message).toMatch(/wallet/);
    const { slug: empty } = await createOrg(owner);
    const deleted = await owner.call('DELETE', `/v1/orgs/${empty}`);
    expect({ status: deleted.status, body: await json(deleted) }).toEqual({ status: 200, body: { deleted: true } });
  });

  it('credits a settled top-up to the org wallet, not to whoever paid', async () => {
    const answer = await json(await owner.call('POST', `/v1/orgs/${slug}/wallet/top-up`, { amountCents: 500 }));
    const before = (await json(await owner.call('GET', `/v1/orgs/${slug}/wallet`))).balanceCents;
    await settleSandboxIntent(app, answer.clientSecret.split('_secret_')[0]);
    const { eventually } = await import('../support/eventually');
    await eventually(async () => (await json(await member.call('GET', `/v1/orgs/${slug}/wallet`))).balanceCents === before + 500);
    expect((await json(await owner.call('GET', '/v1/wallet'))).balanceCents).toBe(0);
  });
  it('an admin saves a card for the org; auto top-up then refills the org wallet from it', async () => {
    const cards = `/v1/orgs/${slug}/billing/payment-methods`;
    expect((await member.call('POST', `/v1/orgs/${slug}/billing/setup-intent`)).status).toBe(403);
    expect((await member.call('GET', cards)).status).toBe(403);
    expect((await outsider.call('POST', `/v1/orgs/${slug}/billing/setup-intent`)).status).toBe(404);
    const { clientSecret } = await json(await admin.call('POST', `/v1/orgs/${slug}/billing/setup-intent`));
    await settleSandboxIntent(app, clientSecret.split('_secret_')[0]);
    await eventually(async () => (await json(await admin.call('GET', cards))).paymentMethods.length === 1, {
      description: "the org's card to be saved",
    });
    // The org's card, not the admin's own.
    expect((await json(await admin.call('GET', '/v1/billing/payment-methods'))).paymentMethods).toEqual([]);

    const configured = await admin.call('PATCH', `/v1/orgs/${slug}/wallet/auto-top-up`, {
      enabled: true,
      thresholdCents: 100_000,
      amountCents: 2500,
    });
    expect(configured.status).toBe(200);
    await fundOrgWallet(app, admin, slug, 1000);
    const before = (await json(await admin.call('GET', `/v1/orgs/${slug}/wallet`))).balanceCents as number;
    await app.server.app
      .get(CommandBus)
      .execute(new DebitWalletCommand(orgWallet(orgId), randomUUID(), 100, 'metered_usage', 'a call'));
    const [charge] = await eventually(
      async () => {
        const rows: { id: string; amount_cents: number }[] = await app.server.app
          .get(DataSource)
          .query(`SELECT id, amount_cents FROM sandbox_payment_intents WHERE metadata->>'purpose' = 'auto_top_up'`);
        return rows.length > 0 && rows;
      },
      { description: "the org's auto top-up charge" },
    );
    expect(Number(charge.amount_cents)).toBe(2500);
    await settleSandboxIntent(app, charge.id);
    await eventually(
      async () => (await json(await admin.call('GET', `/v1/orgs/${slug}/wallet`))).balanceCents === before - 100 + 2500,
      { description: 'the auto top-up to be credited to the org wallet' },
    );
  });
});
