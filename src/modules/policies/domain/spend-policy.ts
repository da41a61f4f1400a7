import { DomainError } from '../../../platform/errors/domain-error';
import { codePointLength, isSingleLineText } from '../../../platform/text/text-rules';
import { PACKAGE_TYPES, PackageType } from '../../catalog/archive/package-manifest';
import { VENDOR_SLUG } from '../../vendors/domain/vendor-profile';

/** The package types a policy may block: the catalogue's own list. */
export const POLICY_PACKAGE_TYPES = PACKAGE_TYPES;

export const POLICY_LIMITS = {
  name: 128,
  vendorAllowlist: 100,
  /** Room for duplicates, which are dropped; there are only five types. */
  blockedTypes: 20,
  /** $100M: far above any sane limit, and far below where integer cents lose precision. */
  cents: 10_000_000_000,
} as const;

/** The money rules: optional amounts in cents, null when the policy sets none. */
export const CENTS_RULES = ['maxPerPurchaseCents', 'dailyLimitCents', 'monthlyLimitCents', 'requireApprovalAboveCents'] as const;
export type CentsRule = (typeof CENTS_RULES)[number];

/** What a spend policy says, as the spec's Spend policy resource names it. */
export type SpendPolicyRules = {
  name: string;
  maxPerPurchaseCents: number | null;
  dailyLimitCents: number | null;
  monthlyLimitCents: number | null;
  requireApprovalAboveCents: number | null;
  /** Vendor slugs; empty allows every vendor. */
  vendorAllowlist: string[];
  blockedTypes: PackageType[];
  /** An inactive policy allows every purchase (it is kept, and keeps its tokens, to be switched back on). */
  active: boolean;
};

/** A PATCH: an omitted (undefined) field is kept; null clears a money rule. */
export type SpendPolicyChanges = Partial<SpendPolicyRules>;

/** A new policy's rules before the caller's fields: no limits, every vendor and type, active. */
export const DEFAULT_POLICY_RULES: Omit<SpendPolicyRules, 'name'> = {
  maxPerPurchaseCents: null,
  dailyLimitCents: null,
  monthlyLimitCents: null,
  requireApprovalAboveCents: null,
  vendorAllowlist: [],
  blockedTypes: [],
  active: true,
};

/**
 * The domain's own guard on a policy (the HTTP layer validates first): a
 * trimmed one-line name, amounts as integer cents in bounds, vendor slugs of
 * the vendors' shape and known package types, each list without duplicates.
 * Returns the rules normalised so, or throws a 400 naming the field.
 */
export function checkedRules(rules: SpendPolicyRules): SpendPolicyRules {
  const name = typeof rules.name === 'string' ? rules.name.trim() : '';
  if (codePointLength(name) < 1 || codePointLength(name) > POLICY_LIMITS.name || !isSingleLineText(name))
    throw new DomainError('invalid', `name must be 1-${POLICY_LIMITS.name} characters on one line, without control characters`);
  for (const field of CENTS_RULES) {
    const cents = rules[field];
    if (cents !== null && (!Number.isSafeInteger(cents) || cents < 0 || cents > POLICY_LIMITS.cents))
      throw new DomainError('invalid', `${field} must be null or an integer number of cents from 0 to ${POLICY_LIMITS.cents}`);
  }
  const vendorAllowlist = [...new Set(rules.vendorAllowlist)];
  if (vendorAllowlist.length > POLICY_LIMITS.vendorAllowlist)
    throw new DomainError('invalid', `vendorAllowlist must name at most ${POLICY_LIMITS.vendorAllowlist} vendors`);
  if (vendorAllowlist.some((slug) => typeof slug !== 'string' || !VENDOR_SLUG.test(slug)))
    throw new DomainError('invalid', 'vendorAllowlist must hold vendor slugs (2-32 lowercase letters, digits or hyphens)');
  const blockedTypes = [...new Set(rules.blockedTypes)];
  if (blockedTypes.some((type) => !(POLICY_PACKAGE_TYPES as readonly string[]).includes(type)))
    throw new DomainError('invalid', `blockedTypes must hold package types: ${POLICY_PACKAGE_TYPES.join(', ')}`);
  if (typeof rules.active !== 'boolean') throw new DomainError('invalid', 'active must be a boolean');
  return {
    name,
    maxPerPurchaseCents: rules.maxPerPurchaseCents,
    dailyLimitCents: rules.dailyLimitCents,
    monthlyLimitCents: rules.monthlyLimitCents,
    requireApprovalAboveCents: rules.requireApprovalAboveCents,
    vendorAllowlist,
    blockedTypes,
    active: rules.active,
  };
}

/** The fields whose values differ between two sets of rules, in the resource's order. */
export function changedFields(before: SpendPolicyRules, after: SpendPolicyRules): (keyof SpendPolicyRules)[] {
  const fields: (keyof SpendPolicyRules)[] = ['name', ...CENTS_RULES, 'vendorAllowlist', 'blockedTypes', 'active'];
  return fields.filter((field) => JSON.stringify(before[field]) !== JSON.stringify(after[field]));
}
