export const SCOPES = ['read', 'purchase', 'download', 'sell'] as const;
export type Scope = (typeof SCOPES)[number];

/** Who is calling: resolved from a Bearer token by the guard. */
export interface Principal {
  userId: string;
  tokenId: string;
  /** The token's name, as its owner gave it (shown where an agent's request waits for its owner). */
  tokenName: string;
  scopes: Scope[];
  /** The spend policy bound to the token, if any: purchases and metered calls are checked against it. */
  policyId: string | null;
  /** When the token stops working, if ever: a token it mints may not outlive it. */
  expiresAt: Date | null;
}

/**
 * The port the guard resolves callers through; the auth module is its adapter.
 * Refuses with an `unauthenticated` DomainError: a missing or malformed
 * Authorization header, unknown, expired or revoked tokens, and every token of
 * a deleted account.
 */
export abstract class Authenticator {
  abstract authenticate(authorization: string | undefined, clientAddress: string): Promise<Principal>;
}
