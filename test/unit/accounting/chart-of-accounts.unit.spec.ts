import { existsSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import { EventCatalogue } from '../../../src/event-store/event-catalogue';
import { LogPosition, RecordedEvent } from '../../../src/event-store/event-store';
import { Accounts, CHART_OF_ACCOUNTS, postingRuleFor } from '../../../src/modules/accounting/chart-of-accounts';
import { Journal } from '../../../src/modules/accounting/journal';
import { eventTypesWithCents } from './money-event-types';

let revision = 0;
const event = (type: string, streamId: string, data: Record<string, unknown>): RecordedEvent => ({
  eventId: `00000000-0000-4000-8000-${String(++revision).padStart(12, '0')}`,
  type,
  streamId,
  revision,
  position: LogPosition.START,
  data,
  metadata: { schemaVersion: 1, occurredAt: '2026-11-24T10:00:00.000Z' },
});

const wallet = 'wallet-user-u1';
const order = (fields: Record<string, unknown>) => ({
  orderId: 'o1',
  vendorId: 'v1',
  amountCents: 1000,
  platformFeeCents: 150,
  vendorNetCents: 850,
  status: 'paid',
  fundingSource: 'wallet',
  ...fields,
});

describe('chart of accounts', () => {
  const moneyTypes = eventTypesWithCents(path.resolve(__dirname, '../../../src'));

  it('finds the events in cents the source declares, payloads typed through named types included (the scan itself works)', () => {
    expect([...moneyTypes.keys()]).toEqual(
      expect.arrayContaining(['WalletToppedUp', 'WalletDebited', 'PurchaseMade', 'SpendPolicyCreated', 'AutoTopUpConfigured']),
    );
  });

  it('has a posting rule, or says why it posts nothing, for every event type whose payload has an amount in cents', () => {
    const missing = [...moneyTypes.entries()]
      .filter(([type]) => !postingRuleFor(type))
      .map(([type, file]) => `${type} (${file})`);
    expect(missing).toEqual([]);
  });

  it('names only event types some module declares', () => {
    const modules = path.resolve(__dirname, '../../../src/modules');
    for (const module of readdirSync(modules))
      if (existsSync(path.join(modules, module, 'events.ts'))) require(path.join(modules, module, 'events'));
    expect(Object.keys(CHART_OF_ACCOUNTS).filter((type) => !EventCatalogue.isDeclared(type))).toEqual([]);
  });
});

describe('journal', () => {
  it('posts a top-up, a wallet purchase and a card purchase as balanced entries; the trial balance is zero', () => {
    const journal = new Journal();
    journal.record(event('WalletToppedUp', wallet, { amountCents: 5000, balanceAfterCents: 5000 }));
    journal.record(event('WalletDebited', wallet, { amountCents: -1000, balanceAfterCents: 4000, reason: 'purchase' }));
    journal.record(event('PurchaseMade', 'order-o1', order({})));
    journal.record(event('PurchaseMade', 'order-o2', order({ orderId: 'o2', fundingSource: 'card', status: 'pending' })));
    expect(journal.balanceOf(Accounts.vendorPayable('v1'))).toBe(-850);
    journal.record(event('OrderPaid', 'order-o2', { orderId: 'o2', paymentIntentId: 'pi_1' }));

    expect(journal.problems).toEqual([]);
    expect(journal.trialBalance()).toBe(0);
    expect(journal.balanceOf(Accounts.wallet(wallet))).toBe(-4000);
    expect(journal.balanceOf(Accounts.walletPurchasesClearing)).toBe(0);
    expect(journal.balanceOf(Accounts.processorClearing)).toBe(6000);
    expect(journal.balanceOf(Accounts.vendorPayable('v1'))).toBe(-1700);
    expect(journal.balanceOf(Accounts.platformFeeRevenue)).toBe(-300);
  });

  it('posts a refund to the refunds account and metered usage to its clearing account', () => {
    const journal = new Journal();
    journal.record(event('WalletCredited', wallet, { amountCents: 400, balanceAfterCents: 400, reason: 'refund' }));
    journal.record(event('WalletDebited', wallet, { amountCents: -100, balanceAfterCents: 300, reason: 'metered_usage' }));
    expect(journal.balanceOf(Accounts.refunds)).toBe(400);
    expect(journal.balanceOf(Accounts.meteredUsageClearing)).toBe(-100);
    expect(journal.balanceOf(Accounts.wallet(wallet))).toBe(-300);
    expect(journal.trialBalance()).toBe(0);
  });

  it('nets a released metered call to zero: reservation, refund credit and release leave no balance behind', () => {
    const journal = new Journal();
    const call = { callId: 'c1', vendorId: 'v1', costCents: 25 };
    journal.record(event('WalletToppedUp', wallet, { amountCents: 100, balanceAfterCents: 100 }));
    journal.record(event('WalletDebited', wallet, { amountCents: -25, balanceAfterCents: 75, reason: 'metered_usage' }));
    journal.record(event('WalletCredited', wallet, { amountCents: 25, balanceAfterCents: 100, reason: 'refund' }));
    journal.record(event('ServiceCalled', 'service-call-c1', { ...call, outcome: 'timeout', chargedCents: 0 }));
    expect(journal.balanceOf(Accounts.meteredUsageClearing)).toBe(0);
    expect(journal.balanceOf(Accounts.refunds)).toBe(0);
    expect(journal.balanceOf(Accounts.wallet(wallet))).toBe(-100);

    journal.record(event('WalletDebited', wallet, { amountCents: -25, balanceAfterCents: 75, reason: 'metered_usage' }));
    expect(
      journal.record(event('ServiceCalled', 'service-call-c2', { ...call, callId: 'c2', outcome: 'success', chargedCents: 25 })),
    ).toBeNull();
    expect(journal.balanceOf(Accounts.meteredUsageClearing)).toBe(-25);
    expect(journal.trialBalance()).toBe(0);
  });

  it('posts nothing for a free order or a pending card order', () => {
    const journal = new Journal();
    expect(
      journal.record(event('PurchaseMade', 'order-o3', order({ amountCents: 0, platformFeeCents: 0, vendorNetCents: 0 }))),
    ).toBeNull();
    expect(journal.record(event('PurchaseMade', 'order-o4', order({ fundingSource: 'card', status: 'pending' })))).toBeNull();
    expect(journal.entries).toBe(0);
  });

  it('books limits and settings as no money: a policy created and changed, an auto top-up configured', () => {
    const journal = new Journal();
    const limits = { name: 'agent', maxPerPurchaseCents: 500, dailyLimitCents: 1000, monthlyLimitCents: null };
    expect(journal.record(event('SpendPolicyCreated', 'policy-p1', { policyId: 'p1', ...limits }))).toBeNull();
    expect(
      journal.record(event('SpendPolicyUpdated', 'policy-p1', { policyId: 'p1', ...limits, requireApprovalAboveCents: 200 })),
    ).toBeNull();
    expect(
      journal.record(event('AutoTopUpConfigured', wallet, { enabled: true, thresholdCents: 300, amountCents: 2000 })),
    ).toBeNull();
    expect(journal.problems).toEqual([]);
    expect(journal.entries).toBe(0);
    expect(postingRuleFor('SpendPolicyCreated')).toEqual({ limitsOrSettings: expect.any(String) });
  });

  it('names an event in cents the chart has no line for, and an entry that does not balance', () => {
    const journal = new Journal();
    journal.record(event('SomethingNewCharged', 'x-1', { amountCents: 10 }));
    journal.record(event('PurchaseMade', 'order-o5', order({ orderId: 'o5', vendorNetCents: 900 })));
    expect(journal.problems.map((p) => [p.kind, p.type])).toEqual([
      ['no_posting_rule', 'SomethingNewCharged'],
      ['unbalanced_entry', 'PurchaseMade'],
    ]);
    expect(journal.trialBalance()).toBe(0);
  });
});
