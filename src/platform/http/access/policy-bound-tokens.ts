import { DomainError } from '../../errors/domain-error';
import { Principal } from './principal';

/**
 * A token bound to a spend policy is how an owner lets an agent spend: it may
 * spend within the policy and nothing more. So it may never do what would lift
 * the policy's limits. Each such thing is named here, once, and refused with
 * 403 by the guard on every route marked `@OwnerOnly(...)`:
 *
 * - create, change or delete a spend policy (personal or an org's);
 * - approve or decline a purchase its policy held back;
 * - approve a device sign-in (that would issue a new token outside the policy);
 * - create a token that is not bound to its own policy (a token it creates
 *   is bound to that policy unless it names it explicitly; see `mintableBy`).
 */
export const OWNER_ONLY_ACTIONS = {
  changePolicies: 'create, change or delete spend policies',
  decideApprovals: 'approve or decline purchases',
  approveSignIns: 'approve device sign-ins',
  mintUnboundTokens: 'create a token bound to another spend policy, or to none',
} as const;

export type OwnerOnlyAction = keyof typeof OWNER_ONLY_ACTIONS;

export function refusalForPolicyBoundToken(action: OwnerOnlyAction): DomainError {
  return new DomainError(
    'forbidden',
    `A token bound to a spend policy cannot ${OWNER_ONLY_ACTIONS[action]}: use your own account (a token without a policy, or the web app)`,
  );
}

/** Refuses the action to a token bound to a spend policy; anyone else may go on. */
export function refusePolicyBoundToken(principal: Pick<Principal, 'policyId'>, action: OwnerOnlyAction): void {
  if (principal.policyId) throw refusalForPolicyBoundToken(action);
}

/**
 * The policy a new token made by `caller` is bound to. An unbound caller binds
 * it to what it asked for (or nothing); a bound caller's token is bound to the
 * caller's own policy, and asking for any other is refused.
 */
export function mintableBy(caller: Pick<Principal, 'policyId'>, requestedPolicyId: string | undefined): string | null {
  if (!caller.policyId) return requestedPolicyId ?? null;
  if (requestedPolicyId !== undefined && requestedPolicyId !== caller.policyId)
    throw refusalForPolicyBoundToken('mintUnboundTokens');
  return caller.policyId;
}
