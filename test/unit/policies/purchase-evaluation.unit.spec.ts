import { evaluatePurchase, PolicyPurchaseTerms } from '../../../src/modules/policies/domain/purchase-evaluation';
import { DEFAULT_POLICY_RULES, SpendPolicyRules } from '../../../src/modules/policies/domain/spend-policy';
import { LiveSpendPolicy, SpendPolicyState } from '../../../src/modules/policies/domain/spend-policy.decider';
import { NO_SPEND, PolicySpend } from '../../../src/modules/policies/domain/spend-window';
import { DomainError } from '../../../src/platform/errors/domain-error';

const now = new Date('2026-11-22T10:00:00.000Z');

function policy(rules: Partial<SpendPolicyRules> = {}, spend: PolicySpend = NO_SPEND): LiveSpendPolicy {
  return {
    status: 'live',
    policyId: 'p1',
    owner: { kind: 'user', id: 'u1' },
    createdAt: now.toISOString(),
    ...DEFAULT_POLICY_RULES,
    name: 'Agents',
    ...rules,
    spend,
    unsettled: {},
  };
}

const terms = (overrides: Partial<PolicyPurchaseTerms> = {}): PolicyPurchaseTerms => ({
  priceCents: 500,
  vendorSlug: 'acme',
  listingType: 'skill',
  now,
  ...overrides,
});

const refusal = (state: SpendPolicyState | null, t: PolicyPurchaseTerms) => {
  const evaluation = evaluatePurchase(state, t);
  if (evaluation.allowed) throw new Error('expected a refusal');
  return evaluation;
};

describe('evaluatePurchase', () => {
  it('allows anything under a policy with no rules', () => {
    expect(evaluatePurchase(policy(), terms())).toEqual({ allowed: true });
  });

  it('fails closed for an unknown or deleted policy, free listings included', () => {
    for (const gone of [
      null,
      { status: 'none' } as const,
      { status: 'deleted', policyId: 'p1', owner: { kind: 'user', id: 'u1' } } as const,
    ]) {
      const evaluation = refusal(gone, terms({ priceCents: 0 }));
      expect(evaluation.rule).toBe('policyMissing');
      expect(evaluation.reason).toMatch(/no longer exists.*every purchase.*needs approval/);
    }
  });

  it('allows everything while the policy is inactive', () => {
    const strict = policy({
      active: false,
      maxPerPurchaseCents: 1,
      dailyLimitCents: 1,
      vendorAllowlist: ['other'],
      blockedTypes: ['skill'],
    });
    expect(evaluatePurchase(strict, terms({ priceCents: 10_000 }))).toEqual({ allowed: true });
  });

  it('limits vendors to the allowlist, for free listings too; an empty allowlist allows all', () => {
    const allowlisted = policy({ vendorAllowlist: ['trusted', 'also-trusted'] });
    expect(evaluatePurchase(allowlisted, terms({ vendorSlug: 'trusted' }))).toEqual({ allowed: true });
    const evaluation = refusal(allowlisted, terms({ vendorSlug: 'acme', priceCents: 0 }));
    expect(evaluation.rule).toBe('vendorAllowlist');
    expect(evaluation.reason).toBe(
      'The spend policy "Agents" allows purchases only from the vendors on its allowlist, and "acme" is not one of them.',
    );
    expect(evaluatePurchase(policy({ vendorAllowlist: [] }), terms())).toEqual({ allowed: true });
  });

  it('blocks the blocked package types, for free listings too', () => {
    const noMcp = policy({ blockedTypes: ['mcp'] });
    expect(refusal(noMcp, terms({ listingType: 'mcp', priceCents: 0 }))).toEqual({
      allowed: false,
      rule: 'blockedTypes',
      reason: 'The spend policy "Agents" blocks purchases of mcp packages.',
    });
    expect(evaluatePurchase(noMcp, terms({ listingType: 'skill' }))).toEqual({ allowed: true });
  });

  it('applies the money rules to priced listings only', () => {
    const broke = policy(
      { maxPerPurchaseCents: 0, requireApprovalAboveCents: 0, dailyLimitCents: 0, monthlyLimitCents: 0 },
      { day: '2026-11-22', dayCents: 10_000, month: '2026-11', monthCents: 10_000 },
    );
    expect(evaluatePurchase(broke, terms({ priceCents: 0 }))).toEqual({ allowed: true });
    expect(evaluatePurchase(broke, terms({ priceCents: 1 })).allowed).toBe(false);
  });

  it('refuses a purchase above the per-purchase maximum, naming both amounts; the maximum itself is allowed', () => {
    const capped = policy({ maxPerPurchaseCents: 1_000 });
    expect(evaluatePurchase(capped, terms({ priceCents: 1_000 }))).toEqual({ allowed: true });
    expect(refusal(capped, terms({ priceCents: 1_001 }))).toEqual({
      allowed: false,
      rule: 'maxPerPurchaseCents',
      reason: 'The spend policy "Agents" allows at most 1000 cents per purchase, and this purchase costs 1001 cents.',
    });
  });

  it('needs approval above the threshold, not at it', () => {
    const threshold = policy({ requireApprovalAboveCents: 500 });
    expect(evaluatePurchase(threshold, terms({ priceCents: 500 }))).toEqual({ allowed: true });
    const evaluation = refusal(threshold, terms({ priceCents: 501 }));
    expect(evaluation.rule).toBe('requireApprovalAboveCents');
    expect(evaluation.reason).toBe(
      'The spend policy "Agents" needs approval for purchases above 500 cents, and this purchase costs 501 cents.',
    );
  });

  it("counts today's recorded spend plus this purchase against the daily limit", () => {
    const spentToday = { day: '2026-11-22', dayCents: 700, month: '2026-11', monthCents: 700 };
    const daily = policy({ dailyLimitCents: 1_000 }, spentToday);
    expect(evaluatePurchase(daily, terms({ priceCents: 300 }))).toEqual({ allowed: true });
    const evaluation = refusal(daily, terms({ priceCents: 301 }));
    expect(evaluation.rule).toBe('dailyLimitCents');
    expect(evaluation.reason).toBe(
      'The spend policy "Agents" has a daily limit of 1000 cents: 700 cents is spent today (UTC), and this purchase ' +
        'of 301 cents would bring it to 1001 cents.',
    );
  });

  it('starts a new day at midnight UTC, whatever the local time', () => {
    const lateYesterday = { day: '2026-11-21', dayCents: 1_000, month: '2026-11', monthCents: 1_000 };
    const daily = policy({ dailyLimitCents: 1_000 }, lateYesterday);
    expect(evaluatePurchase(daily, terms({ now: new Date('2026-11-21T23:59:59.999Z') })).allowed).toBe(false);
    expect(evaluatePurchase(daily, terms({ now: new Date('2026-11-22T00:00:00.000Z') }))).toEqual({ allowed: true });
  });

  it("counts this month's spend against the monthly limit, and starts afresh on the 1st (UTC)", () => {
    const spent = { day: '2026-11-30', dayCents: 0, month: '2026-11', monthCents: 9_800 };
    const monthly = policy({ monthlyLimitCents: 10_000 }, spent);
    const evaluation = refusal(monthly, terms({ priceCents: 300, now: new Date('2026-11-30T23:00:00.000Z') }));
    expect(evaluation.rule).toBe('monthlyLimitCents');
    expect(evaluation.reason).toMatch(/monthly limit of 10000 cents: 9800 cents is spent this month \(UTC\).*10100 cents/);
    expect(evaluatePurchase(monthly, terms({ priceCents: 300, now: new Date('2026-12-01T00:00:00.000Z') }))).toEqual({
      allowed: true,
    });
  });

  it('checks the rules in a fixed order, so the reason names the first that refuses', () => {
    const everything = policy(
      { vendorAllowlist: ['trusted'], blockedTypes: ['skill'], maxPerPurchaseCents: 1, requireApprovalAboveCents: 1 },
      NO_SPEND,
    );
    expect(refusal(everything, terms()).rule).toBe('vendorAllowlist');
    expect(refusal(everything, terms({ vendorSlug: 'trusted' })).rule).toBe('blockedTypes');
    expect(refusal(everything, terms({ vendorSlug: 'trusted', listingType: 'rule' })).rule).toBe('maxPerPurchaseCents');
  });

  it('refuses a price that is not whole, non-negative cents', () => {
    for (const priceCents of [-1, 1.5, Number.NaN]) {
      expect(() => evaluatePurchase(policy(), terms({ priceCents }))).toThrow(DomainError);
    }
  });
});
