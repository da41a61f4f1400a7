import fc from 'fast-check';
import {
  PolicyApprovalRequiredError,
  policySpendEventId,
  spendPolicyDecider,
  SpendPolicyCommand,
  SpendPolicyEvent,
} from '../../../src/modules/policies/domain';
import { DEFAULT_POLICY_RULES, SpendPolicyRules } from '../../../src/modules/policies/domain/spend-policy';
import { addSpend, NO_SPEND } from '../../../src/modules/policies/domain/spend-window';
import { errorOf, givenWhenThen, t0 } from '../../support/decider';

const { fold, when, then } = givenWhenThen(spendPolicyDecider);
const owner = { kind: 'user' as const, id: 'u1' };
const stranger = { kind: 'user' as const, id: 'u2' };

const create = (rules: Partial<SpendPolicyRules> = {}): SpendPolicyCommand => ({
  type: 'CreatePolicy',
  policyId: 'p1',
  owner,
  rules: { ...DEFAULT_POLICY_RULES, name: 'Agents', ...rules },
  now: t0,
});
const spend = (purchaseId: string, priceCents: number, now = t0, approved = false): SpendPolicyCommand => ({
  type: 'RecordSpend',
  purchaseId,
  priceCents,
  vendorSlug: 'acme',
  listingType: 'skill',
  approved,
  now,
});
const update = (changes: Partial<SpendPolicyRules>, by = owner): SpendPolicyCommand => ({
  type: 'UpdatePolicy',
  owner: by,
  changes,
  now: t0,
});

describe('the spend policy decider', () => {
  it('creates a policy with defaults for what is left out, trimming the name and dropping duplicates', () => {
    const [created] = when(
      [],
      create({ name: '  Agents ', vendorAllowlist: ['acme', 'acme', 'beta'], blockedTypes: ['mcp', 'mcp'] }),
    );
    expect(created).toEqual({
      type: 'SpendPolicyCreated',
      data: {
        policyId: 'p1',
        owner,
        name: 'Agents',
        maxPerPurchaseCents: null,
        dailyLimitCents: null,
        monthlyLimitCents: null,
        requireApprovalAboveCents: null,
        vendorAllowlist: ['acme', 'beta'],
        blockedTypes: ['mcp'],
        active: true,
        createdAt: t0.toISOString(),
      },
    });
    expect(errorOf(() => when(then([], create()), create())).code).toBe('conflict');
  });

  it('refuses rules it could not enforce, naming the field', () => {
    const cases: [Partial<SpendPolicyRules>, RegExp][] = [
      [{ name: ' ' }, /^name/],
      [{ name: 'x'.repeat(129) }, /^name/],
      [{ name: 'two\nlines' }, /^name/],
      [{ dailyLimitCents: -1 }, /^dailyLimitCents/],
      [{ maxPerPurchaseCents: 1.5 }, /^maxPerPurchaseCents/],
      [{ monthlyLimitCents: 1e16 }, /^monthlyLimitCents/],
      [{ vendorAllowlist: ['Not A Slug'] }, /^vendorAllowlist/],
      [{ vendorAllowlist: Array.from({ length: 101 }, (_, i) => `v-${i}`) }, /^vendorAllowlist/],
      [{ blockedTypes: ['mcp_server' as never] }, /^blockedTypes/],
    ];
    for (const [rules, message] of cases) {
      const error = errorOf(() => when([], create(rules)));
      expect(error.code).toBe('invalid');
      expect(error.message).toMatch(message);
    }
  });

  it('updates only what is given, null clearing a money rule, and records which fields changed', () => {
    const history = then([], create({ dailyLimitCents: 1_000, maxPerPurchaseCents: 500 }));
    const [updated] = when(history, update({ dailyLimitCents: null, name: 'Renamed', active: false }));
    expect(updated.type).toBe('SpendPolicyUpdated');
    expect(updated.data).toMatchObject({
      name: 'Renamed',
      dailyLimitCents: null,
      maxPerPurchaseCents: 500,
      active: false,
      changed: ['name', 'dailyLimitCents', 'active'],
    });
    expect(fold([...history, updated])).toMatchObject({ name: 'Renamed', dailyLimitCents: null, maxPerPurchaseCents: 500 });
    expect(when(history, update({ maxPerPurchaseCents: 500 }))).toEqual([]);
  });

  it("treats another owner's, a deleted and an unknown policy alike: not found", () => {
    const history = then([], create());
    expect(errorOf(() => when(history, update({ name: 'Mine' }, stranger))).code).toBe('not_found');
    expect(errorOf(() => when(history, { type: 'DeletePolicy', owner: stranger, now: t0 })).code).toBe('not_found');
    const deleted = then(history, { type: 'DeletePolicy', owner, now: t0 });
    expect(fold(deleted)).toEqual({ status: 'deleted', policyId: 'p1', owner });
    expect(errorOf(() => when(deleted, update({ name: 'Back' }))).code).toBe('not_found');
    expect(errorOf(() => when(deleted, { type: 'DeletePolicy', owner, now: t0 })).code).toBe('not_found');
    expect(errorOf(() => when([], { type: 'DeletePolicy', owner, now: t0 })).code).toBe('not_found');
  });

  describe('recording spend', () => {
    it('records a priced purchase with an id derived from the purchase, and folds it into the day and month', () => {
      const history = then([], create());
      const [recorded] = when(history, spend('buy-1', 700));
      expect(recorded).toEqual({
        eventId: policySpendEventId('p1', 'buy-1'),
        type: 'PolicySpendRecorded',
        data: { policyId: 'p1', purchaseId: 'buy-1', amountCents: 700, approved: false, recordedAt: t0.toISOString() },
      });
      expect(when(history, spend('buy-1', 700))[0].eventId).toBe(recorded.eventId);
      expect(fold([...history, recorded])).toMatchObject({
        spend: { day: '2026-11-22', dayCents: 700, month: '2026-11', monthCents: 700 },
      });
    });

    it('refuses a purchase past the daily limit with the evaluation, and records nothing', () => {
      const history = then(then([], create({ dailyLimitCents: 1_000 })), spend('buy-1', 700));
      const error = errorOf(() => when(history, spend('buy-2', 301)));
      expect(error).toBeInstanceOf(PolicyApprovalRequiredError);
      expect(error.code).toBe('payment_required');
      expect(error.details).toEqual({ status: 'approval_required', rule: 'dailyLimitCents' });
      expect((error as PolicyApprovalRequiredError).evaluation.reason).toMatch(/700 cents is spent today/);
      expect(when(history, spend('buy-2', 300))).toHaveLength(1);
    });

    it('refuses past the monthly limit, over several days', () => {
      let history = then([], create({ monthlyLimitCents: 1_000 }));
      history = then(history, spend('buy-1', 600, new Date('2026-11-01T12:00:00Z')));
      history = then(history, spend('buy-2', 300, new Date('2026-11-15T12:00:00Z')));
      const error = errorOf(() => when(history, spend('buy-3', 101, new Date('2026-11-30T23:59:59Z'))));
      expect(error.details).toMatchObject({ rule: 'monthlyLimitCents' });
      // The new month starts from zero.
      expect(when(history, spend('buy-3', 1_000, new Date('2026-12-01T00:00:00Z')))).toHaveLength(1);
    });

    it('resets the daily total at midnight UTC', () => {
      const history = then(
        then([], create({ dailyLimitCents: 1_000 })),
        spend('buy-1', 1_000, new Date('2026-11-22T23:59:59.999Z')),
      );
      expect(errorOf(() => when(history, spend('buy-2', 1, new Date('2026-11-22T23:59:59.999Z')))).details).toMatchObject({
        rule: 'dailyLimitCents',
      });
      const nextDay = then(history, spend('buy-2', 1_000, new Date('2026-11-23T00:00:00.000Z')));
      expect(fold(nextDay)).toMatchObject({ spend: { day: '2026-11-23', dayCents: 1_000, month: '2026-11', monthCents: 2_000 } });
    });

    it('records an approved purchase past the rules, marked as approved', () => {
      const history = then([], create({ maxPerPurchaseCents: 100 }));
      const [recorded] = when(history, spend('buy-1', 5_000, t0, true));
      expect(recorded.data).toMatchObject({ amountCents: 5_000, approved: true });
    });

    it('records nothing for a free listing, but still applies the allowlist and blocked types to it', () => {
      expect(when(then([], create({ dailyLimitCents: 0 })), spend('free', 0))).toEqual([]);
      const allowlisted = then([], create({ vendorAllowlist: ['trusted'] }));
      expect(errorOf(() => when(allowlisted, spend('free', 0))).details).toMatchObject({ rule: 'vendorAllowlist' });
    });

    it('fails closed once the policy is deleted or when it never existed; an approved purchase records nothing there', () => {
      const deleted = then(then([], create()), { type: 'DeletePolicy', owner, now: t0 });
      for (const history of [deleted, [] as SpendPolicyEvent[]]) {
        expect(errorOf(() => when(history, spend('buy-1', 0))).details).toMatchObject({ rule: 'policyMissing' });
        expect(when(history, spend('buy-1', 500, t0, true))).toEqual([]);
      }
    });

    it('records under an inactive policy whatever the rules, and counts it once the policy is active again', () => {
      let history = then([], create({ dailyLimitCents: 1_000, active: false }));
      history = then(history, spend('buy-1', 5_000));
      history = then(history, update({ active: true }));
      expect(errorOf(() => when(history, spend('buy-2', 1))).details).toMatchObject({ rule: 'dailyLimitCents' });
    });
  });

  it('keeps a bounded, plain-JSON state however many purchases it folds', () => {
    let history = then([], create());
    for (let i = 0; i < 50; i++) history = then(history, spend(`buy-${i}`, 10, new Date(t0.getTime() + i * 3_600_000)));
    const state = fold(history);
    expect(JSON.parse(JSON.stringify(state))).toEqual(state);
    expect(JSON.stringify(state).length).toBeLessThan(600);
    expect(spendPolicyDecider.snapshot).toEqual({ version: 1, every: 100 });
  });
});

describe('the spend window', () => {
  it('a purchase stamped in an earlier day than the total leaves the total alone', () => {
    const today = addSpend(NO_SPEND, 100, new Date('2026-11-22T10:00:00Z'));
    expect(addSpend(today, 50, new Date('2026-11-21T23:59:00Z'))).toEqual({
      day: '2026-11-22',
      dayCents: 100,
      month: '2026-11',
      monthCents: 150,
    });
  });

  it('the day total never exceeds the month total, in any order of recordings', () => {
    const recording = fc.record({
      amount: fc.integer({ min: 0, max: 10_000 }),
      at: fc.date({ min: new Date('2026-01-01T00:00:00Z'), max: new Date('2026-03-31T23:59:59Z'), noInvalidDate: true }),
    });
    fc.assert(
      fc.property(fc.array(recording, { maxLength: 40 }), (recordings) => {
        const spent = recordings.reduce((s, r) => addSpend(s, r.amount, r.at), NO_SPEND);
        return spent.dayCents <= spent.monthCents && spent.day.startsWith(spent.month);
      }),
    );
  });
});
