import { DomainError } from '../../../platform/errors/domain-error';
import type { SpendPolicyState } from './spend-policy.decider';
import { spentInMonthOf, spentOnDayOf } from './spend-window';

/** What a purchase is judged on. `listingType` is a catalogue package type; `now` decides the UTC day and month. */
export interface PolicyPurchaseTerms {
  priceCents: number;
  vendorSlug: string;
  listingType: string;
  now: Date;
}

/** The rule that refused a purchase: the policy field's name, or `policyMissing` when the policy is gone. */
export type PolicyRule =
  | 'policyMissing'
  | 'vendorAllowlist'
  | 'blockedTypes'
  | 'maxPerPurchaseCents'
  | 'requireApprovalAboveCents'
  | 'dailyLimitCents'
  | 'monthlyLimitCents';

export type PurchaseEvaluation = { allowed: true } | { allowed: false; rule: PolicyRule; reason: string };

const ALLOWED: PurchaseEvaluation = { allowed: true };

/**
 * Whether a token bound to this policy may make the purchase without the
 * owner's approval. Pure: the policy's state carries the spend already
 * recorded in the current UTC day and month.
 *
 * - A policy that is unknown or deleted (`null`, or a state that is not live)
 *   fails closed: every purchase needs approval.
 * - An inactive policy allows everything.
 * - The vendor allowlist and blocked types apply to free listings too.
 * - Money rules apply to priced listings only: the per-purchase maximum, the
 *   approval threshold, then the daily and monthly limits counting the spend
 *   recorded so far in the UTC day (month) plus this purchase.
 */
export function evaluatePurchase(policy: SpendPolicyState | null, terms: PolicyPurchaseTerms): PurchaseEvaluation {
  const price = terms.priceCents;
  if (!Number.isSafeInteger(price) || price < 0)
    throw new DomainError('invalid', 'priceCents must be an integer number of cents of at least 0');
  if (policy === null || policy.status !== 'live')
    return refuse(
      'policyMissing',
      "This token's spend policy no longer exists, so every purchase made with the token needs approval.",
    );
  if (!policy.active) return ALLOWED;
  const named = `The spend policy "${policy.name}"`;
  if (policy.vendorAllowlist.length > 0 && !policy.vendorAllowlist.includes(terms.vendorSlug))
    return refuse(
      'vendorAllowlist',
      `${named} allows purchases only from the vendors on its allowlist, and "${terms.vendorSlug}" is not one of them.`,
    );
  if ((policy.blockedTypes as string[]).includes(terms.listingType))
    return refuse('blockedTypes', `${named} blocks purchases of ${terms.listingType} packages.`);
  if (price === 0) return ALLOWED;

  const { maxPerPurchaseCents: max, requireApprovalAboveCents: threshold } = policy;
  if (max !== null && price > max)
    return refuse(
      'maxPerPurchaseCents',
      `${named} allows at most ${cents(max)} per purchase, and this purchase costs ${cents(price)}.`,
    );
  if (threshold !== null && price > threshold)
    return refuse(
      'requireApprovalAboveCents',
      `${named} needs approval for purchases above ${cents(threshold)}, and this purchase costs ${cents(price)}.`,
    );
  const { dailyLimitCents: daily, monthlyLimitCents: monthly } = policy;
  const today = spentOnDayOf(policy.spend, terms.now);
  if (daily !== null && today + price > daily)
    return refuse(
      'dailyLimitCents',
      `${named} has a daily limit of ${cents(daily)}: ${cents(today)} is spent today (UTC), and this purchase of ` +
        `${cents(price)} would bring it to ${cents(today + price)}.`,
    );
  const thisMonth = spentInMonthOf(policy.spend, terms.now);
  if (monthly !== null && thisMonth + price > monthly)
    return refuse(
      'monthlyLimitCents',
      `${named} has a monthly limit of ${cents(monthly)}: ${cents(thisMonth)} is spent this month (UTC), and this ` +
        `purchase of ${cents(price)} would bring it to ${cents(thisMonth + price)}.`,
    );
  return ALLOWED;
}

/**
 * A purchase the policy does not allow without approval: 402 with
 * `status: approval_required`, naming the rule and the reason.
 */
export class PolicyApprovalRequiredError extends DomainError {
  constructor(readonly evaluation: Extract<PurchaseEvaluation, { allowed: false }>) {
    super('payment_required', evaluation.reason, { status: 'approval_required', rule: evaluation.rule });
  }
}

function refuse(rule: PolicyRule, reason: string): PurchaseEvaluation {
  return { allowed: false, rule, reason };
}

const cents = (amount: number): string => `${amount} cents`;
