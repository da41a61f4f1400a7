/**
 * What purchases (and, later, metered calls) use to enforce a token's spend
 * policy. Judge a purchase with `evaluatePurchase` on the policy's folded
 * state; record it with the decider's `RecordSpend`, whose event goes into the
 * purchase's own atomic append at the revision the policy was folded at (see
 * `PolicyLedger` in ../commands/policy-ledger.ts, which does the I/O).
 */
export { evaluatePurchase, PolicyApprovalRequiredError } from './purchase-evaluation';
export type { PolicyPurchaseTerms, PolicyRule, PurchaseEvaluation } from './purchase-evaluation';
export {
  initialSpendPolicyState,
  isLivePolicyOf,
  policySpendEventId,
  policySpendReleaseEventId,
  policyStreamId,
  spendPolicyDecider,
} from './spend-policy.decider';
export type {
  DecidedSpendPolicyEvent,
  LiveSpendPolicy,
  SpendPolicyCommand,
  SpendPolicyEvent,
  SpendPolicyState,
  SpendToRecord,
  UnsettledSpend,
} from './spend-policy.decider';
export { spentInMonthOf, spentOnDayOf, utcDayKey, utcMonthKey } from './spend-window';
export type { PolicySpend } from './spend-window';
export { userPolicyOwner } from './policy-owner';
export type { PolicyOwner } from './policy-owner';
