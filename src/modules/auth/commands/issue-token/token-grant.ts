import { EventStore, StreamAppend } from '../../../../event-store/event-store';
import { foldStream } from '../../../../event-store/fold-stream';
import { userDecider, userStreamId } from '../../../users/domain/user.decider';
import { generateApiToken, hashApiToken, Scope } from '../../domain/api-token';
import { ApiTokenEvent, decideApiToken, initialApiTokenState } from '../../domain/api-token.decider';

export interface TokenSpec {
  tokenId: string;
  userId: string;
  name: string;
  scopes: Scope[];
  via: 'device' | 'api' | 'admin' | 'web';
  expiresInDays?: number | null;
  policyId?: string | null;
  /** The token never outlives this (the credential that asked for it). */
  notAfter?: Date | null;
}

export interface TokenGrant {
  /** Append these atomically: the token's stream and the grant on its user's stream. */
  appends: StreamAppend[];
  token: string;
  issued: Extract<ApiTokenEvent, { type: 'TokenIssued' }>['data'];
}

/**
 * Decides a new token: the token's own stream, and the grant on its user's
 * stream at the revision read, so a token is never granted to an account that
 * is deleted meanwhile, and a deletion always names every token to revoke.
 * The plaintext is minted here and stored nowhere.
 */
export async function decideTokenGrant(store: EventStore, spec: TokenSpec, now: Date): Promise<TokenGrant> {
  const user = await foldStream(store, userStreamId(spec.userId), userDecider.evolve, userDecider.initialState);
  const grant = userDecider.decide({ type: 'GrantToken', tokenId: spec.tokenId, now }, user.state);
  const token = generateApiToken();
  const events = decideApiToken(
    {
      type: 'IssueToken',
      tokenId: spec.tokenId,
      userId: spec.userId,
      name: spec.name,
      scopes: spec.scopes,
      tokenHash: hashApiToken(token),
      policyId: spec.policyId,
      expiresInDays: spec.expiresInDays,
      notAfter: spec.notAfter,
      via: spec.via,
      now,
    },
    initialApiTokenState,
  );
  return {
    appends: [
      { streamId: `token-${spec.tokenId}`, events, expected: 'no_stream' },
      { streamId: userStreamId(spec.userId), events: grant, expected: user.revision },
    ],
    token,
    issued: (events[0] as Extract<ApiTokenEvent, { type: 'TokenIssued' }>).data,
  };
}
