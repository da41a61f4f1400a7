import fc from 'fast-check';
import { EventCatalogue } from '../../../src/event-store/event-catalogue';
import { LogPosition } from '../../../src/event-store/event-store';
import {
  PolicyApprovalRequiredError,
  policySpendEventId,
  policySpendReleaseEventId,
  spendPolicyDecider,
  SpendPolicyCommand,
  SpendPolicyEvent,
} from '../../../src/modules/policies/domain';
import { DEFAULT_POLICY_RULES, SpendPolicyRules } from '../../../src/modules/policies/domain/spend-policy';
import { addSpend, NO_SPEND } from '../../../src/modules/policies/domain/spend-window';
import { at, errorOf, givenWhenThen, t0 } from '../../support/decider';
import '../../../src/modules/policies/events';

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
const spend = (purchaseId: string, priceCents: number, now = t0, approved = false, provisional = false): SpendPolicyCommand => ({
  type: 'RecordSpend',
  purchaseId,
  priceCents,
  vendorSlug: 'acme',
  listingType: 'skill',
  approved,
  provisional,
  now,
});
/** A card purchase's spend: provisional until its payment is confirmed. */
const cardSpend = (purchaseId: string, priceCents: number, now = t0): SpendPolicyCommand =>
  spend(purchaseId, priceCents, now, false, true);
const release = (purchaseId: string, now = t0): SpendPolicyCommand => ({
  type: 'ReleaseSpend',
  purchaseId,
  reason: 'Your card was declined.',
  now,
});
const settle = (purchaseId: string, now = t0): SpendPolicyCommand => ({ type: 'SettleSpend', purchaseId, now });
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
        data: {
          policyId: 'p1',
          purchaseId: 'buy-1',
          amountCents: 700,
          approved: false,
          provisional: false,
          recordedAt: t0.toISOString(),
        },
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

  describe('giving spend back when a purchase fails', () => {
    const limited = () => then([], create({ dailyLimitCents: 1_000, monthlyLimitCents: 5_000 }));

    it('gives back exactly what a declined card purchase recorded, with an id derived from the purchase', () => {
      const history = then(limited(), cardSpend('buy-1', 800));
      expect(errorOf(() => when(history, cardSpend('buy-2', 500))).details).toMatchObject({ rule: 'dailyLimitCents' });
      const [released] = when(history, release('buy-1', at(60)));
      expect(released).toEqual({
        eventId: policySpendReleaseEventId('p1', 'buy-1'),
        type: 'PolicySpendReleased',
        data: {
          policyId: 'p1',
          purchaseId: 'buy-1',
          amountCents: 800,
          recordedAt: t0.toISOString(),
          reason: 'Your card was declined.',
          releasedAt: at(60).toISOString(),
        },
      });
      const after = [...history, released];
      expect(fold(after)).toMatchObject({ spend: { dayCents: 0, monthCents: 0 }, unsettled: {} });
      expect(when(after, cardSpend('buy-2', 500, at(120)))).toHaveLength(1);
    });

    it('gives back once: a second failure of the same purchase decides nothing', () => {
      const once = then(then(limited(), cardSpend('buy-1', 800)), release('buy-1'));
      expect(when(once, release('buy-1'))).toEqual([]);
    });

    it('gives back nothing for a purchase that recorded no spend, a settled one, or a final (wallet) one', () => {
      expect(when(limited(), release('never-recorded'))).toEqual([]);
      expect(when(then(limited(), spend('wallet-1', 800)), release('wallet-1'))).toEqual([]);
      const settled = then(then(limited(), cardSpend('buy-1', 800)), settle('buy-1'));
      expect(settled.map((e) => e.type)).toContain('PolicySpendSettled');
      expect(when(settled, release('buy-1'))).toEqual([]);
      expect(fold(settled)).toMatchObject({ spend: { dayCents: 800 }, unsettled: {} });
      // Settling twice, or what was never provisional, decides nothing either.
      expect(when(settled, settle('buy-1'))).toEqual([]);
      expect(when(then(limited(), spend('wallet-1', 800)), settle('wallet-1'))).toEqual([]);
    });

    it('gives back only the failed purchase, leaving the others counted', () => {
      let history = then(limited(), cardSpend('buy-1', 300));
      history = then(history, cardSpend('buy-2', 400));
      history = then(history, spend('wallet-1', 200));
      history = then(history, release('buy-2'));
      expect(fold(history)).toMatchObject({
        spend: { dayCents: 500, monthCents: 500 },
        unsettled: { 'buy-1': { amountCents: 300 } },
      });
    });

    it("gives back to the day it was counted in: yesterday's purchase failing today leaves today's total alone", () => {
      const yesterday = new Date('2026-11-21T23:30:00Z');
      const today = new Date('2026-11-22T00:30:00Z');
      let history = then(limited(), cardSpend('late-night', 800, yesterday));
      history = then(history, cardSpend('morning', 600, today));
      history = then(history, release('late-night', today));
      expect(fold(history)).toMatchObject({
        spend: { day: '2026-11-22', dayCents: 600, month: '2026-11', monthCents: 600 },
      });
      // Today still has 400 left, no more: the give-back did not lend today yesterday's room.
      expect(errorOf(() => when(history, spend('next', 401, today))).details).toMatchObject({ rule: 'dailyLimitCents' });
      expect(when(history, spend('next', 400, today))).toHaveLength(1);
    });

    it("gives back to the month it was counted in: last month's purchase failing this month leaves this month alone", () => {
      const lastMonth = new Date('2026-10-31T23:50:00Z');
      const thisMonth = new Date('2026-11-01T00:10:00Z');
      let history = then(limited(), cardSpend('october', 900, lastMonth));
      history = then(history, cardSpend('november', 700, thisMonth));
      const [released] = when(history, release('october', thisMonth));
      expect(released.data).toMatchObject({ amountCents: 900, recordedAt: lastMonth.toISOString() });
      expect(fold([...history, released])).toMatchObject({
        spend: { day: '2026-11-01', dayCents: 700, month: '2026-11', monthCents: 700 },
      });
    });

    it('gives back nothing on a deleted policy (it fails closed whatever it spent)', () => {
      const deleted = then(then(limited(), cardSpend('buy-1', 800)), { type: 'DeletePolicy', owner, now: t0 });
      expect(when(deleted, release('buy-1'))).toEqual([]);
    });

    it('counts again, once, a purchase whose payment went through after its failure gave the spend back', () => {
      const released = then(then(limited(), cardSpend('buy-1', 800)), release('buy-1'));
      const recount: SpendPolicyCommand = { type: 'RecountSpend', purchaseId: 'buy-1', amountCents: 800, now: at(600) };
      const [recounted] = when(released, recount);
      expect(recounted).toMatchObject({
        type: 'PolicySpendRecorded',
        data: { purchaseId: 'buy-1', amountCents: 800, provisional: false, recordedAt: at(600).toISOString() },
      });
      // Not the first recording's id, which is stored already; the same on a retry.
      expect(recounted.eventId).not.toBe(policySpendEventId('p1', 'buy-1'));
      expect(when(released, recount)[0].eventId).toBe(recounted.eventId);
      expect(fold([...released, recounted])).toMatchObject({ spend: { dayCents: 800 }, unsettled: {} });
    });

    it('leaves each total equal to the spend of its day (month) that was not given back, in any order of events', () => {
      const purchase = fc.record({
        cents: fc.integer({ min: 1, max: 500 }),
        // Minutes after the start of the window: several days, across a month's end.
        minute: fc.integer({ min: 0, max: 4 * 24 * 60 }),
        fails: fc.boolean(),
        // How many later purchases come before its failure is reported.
        failsAfter: fc.nat({ max: 5 }),
      });
      const start = Date.parse('2026-10-30T00:00:00Z');
      fc.assert(
        fc.property(fc.array(purchase, { maxLength: 30 }), (drawn) => {
          const purchases = [...drawn]
            .sort((a, b) => a.minute - b.minute)
            .map((p, i) => ({ ...p, id: `p${i}`, at: new Date(start + p.minute * 60_000) }));
          let history = then([], create());
          const pending: { id: string; due: number }[] = [];
          purchases.forEach((p, i) => {
            history = then(history, cardSpend(p.id, p.cents, p.at));
            if (p.fails) pending.push({ id: p.id, due: i + p.failsAfter });
            for (const failed of pending.filter((f) => f.due <= i)) history = then(history, release(failed.id, p.at));
            pending.splice(0, pending.length, ...pending.filter((f) => f.due > i));
          });
          for (const failed of pending) history = then(history, release(failed.id, new Date(start + 5 * 86_400_000)));
          const state = fold(history);
          if (purchases.length === 0) return true;
          const last = purchases[purchases.length - 1].at;
          const kept = purchases.filter((p) => !p.fails);
          const sum = (ps: typeof kept) => ps.reduce((total, p) => total + p.cents, 0);
          const day = last.toISOString().slice(0, 10);
          const month = last.toISOString().slice(0, 7);
          return (
            state.status === 'live' &&
            state.spend.dayCents === sum(kept.filter((p) => p.at.toISOString().startsWith(day))) &&
            state.spend.monthCents === sum(kept.filter((p) => p.at.toISOString().startsWith(month))) &&
            Object.keys(state.unsettled).length === kept.length
          );
        }),
      );
    });

    it('reads a first-version spend as final: nothing of it is ever given back', () => {
      const v1 = { type: 'PolicySpendRecorded', data: { policyId: 'p1', purchaseId: 'old', amountCents: 300, approved: false } };
      const upcast = EventCatalogue.upcast({
        ...v1,
        eventId: 'e1',
        streamId: 'policy-p1',
        revision: 1,
        position: LogPosition.START,
        data: { ...v1.data, recordedAt: t0.toISOString() },
        metadata: { schemaVersion: 1, occurredAt: t0.toISOString() },
      });
      const history = [...limited(), upcast as unknown as SpendPolicyEvent];
      expect(fold(history)).toMatchObject({ spend: { dayCents: 300 }, unsettled: {} });
      expect(when(history, release('old'))).toEqual([]);
    });
  });

  it('keeps a bounded, plain-JSON state however many purchases it folds', () => {
    let history = then([], create());
    for (let i = 0; i < 50; i++) history = then(history, spend(`buy-${i}`, 10, new Date(t0.getTime() + i * 3_600_000)));
    // Card purchases are held only until their payment settles or fails.
    for (let i = 0; i < 50; i++) {
      history = then(history, cardSpend(`card-${i}`, 10, new Date(t0.getTime() + i * 3_600_000)));
      history = then(history, i % 2 ? settle(`card-${i}`) : release(`card-${i}`));
    }
    const state = fold(history);
    expect(JSON.parse(JSON.stringify(state))).toEqual(state);
    expect(JSON.stringify(state).length).toBeLessThan(600);
    expect(spendPolicyDecider.snapshot).toEqual({ version: 2, every: 100 });
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
