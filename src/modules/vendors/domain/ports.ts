/**
 * The outside systems verification asks. Abstract classes, so they serve as
 * Nest injection tokens; the adapters in `adapters/` are chosen by configuration
 * in vendors.module.ts.
 */

export type GithubOrgRole = 'admin' | 'member';

/**
 * GitHub's OAuth web flow (scope read:org) and the two REST calls that prove a
 * vendor administers an organization. Failures are DomainErrors: `invalid` when
 * GitHub refuses what the vendor brought (a code, a token), `unavailable` when
 * GitHub cannot answer or is not configured.
 */
export abstract class GithubOAuth {
  /** The page to send the vendor to; `state` comes back with the callback. */
  abstract authorizationUrl(state: string): string;
  /** Trades the code GitHub sent to the callback for an access token. */
  abstract exchangeCode(code: string): Promise<string>;
  /** The login of the user the token belongs to. */
  abstract login(accessToken: string): Promise<string>;
  /** The user's active role in the organization; null when not a member, pending, or the token is no longer valid. */
  abstract orgRole(accessToken: string, org: string): Promise<GithubOrgRole | null>;
}

/**
 * TXT records of a host: each record's character-strings joined into one
 * string, [] when the host has none. A failed lookup is `unavailable` (not "no
 * record"); a host that is not a DNS hostname is `invalid`.
 */
export abstract class DnsTxtLookup {
  abstract txtRecords(host: string): Promise<string[]>;
}
