/**
 * Whose policy: a user's now, an organization's later. Kept in the policy's
 * events (the stream id is the policy's own), so an org policy needs no new
 * event shape.
 */
export type PolicyOwner = {
  kind: 'user' | 'org';
  id: string;
};

export const userPolicyOwner = (userId: string): PolicyOwner => ({ kind: 'user', id: userId });

export const sameOwner = (a: PolicyOwner, b: PolicyOwner): boolean => a.kind === b.kind && a.id === b.id;
