import { DomainError } from '../../../platform/errors/domain-error';
import { codePointLength, isSingleLineText } from '../../../platform/text/text-rules';
import { Scope, SCOPES } from './api-token';
import { AuthEvents } from '../events';

/**
 * One API token's life, as a pure decider (stream `token-<id>`). The stream
 * holds the hash, never the plaintext.
 */
export type ApiTokenEvent =
  | {
      type: typeof AuthEvents.TokenIssued;
      data: {
        tokenId: string;
        userId: string;
        name: string;
        scopes: Scope[];
        tokenHash: string;
        policyId: string | null;
        issuedAt: string;
        expiresAt: string | null;
        via: 'device' | 'api' | 'admin' | 'web';
      };
    }
  | {
      type: typeof AuthEvents.TokenRevoked;
      data: { tokenId: string; userId: string; revokedAt: string; reason: 'revoked' | 'user_deleted' };
    };

export type ApiTokenState =
  | { status: 'none' }
  | { status: 'active'; tokenId: string; userId: string; scopes: Scope[]; expiresAt: number | null }
  | { status: 'revoked'; tokenId: string; userId: string };

export type ApiTokenCommand =
  | {
      type: 'IssueToken';
      tokenId: string;
      userId: string;
      name: string;
      scopes: Scope[];
      tokenHash: string;
      policyId?: string | null;
      expiresInDays?: number | null;
      /** The expiry of the credential behind the request: the new token never outlives it. */
      notAfter?: Date | null;
      via: 'device' | 'api' | 'admin' | 'web';
      now: Date;
    }
  | { type: 'RevokeToken'; byUserId: string; reason?: 'revoked' | 'user_deleted'; now: Date };

export const initialApiTokenState: ApiTokenState = { status: 'none' };

const MAX_EXPIRY_DAYS = 3650;
const DAY_MS = 24 * 60 * 60 * 1000;

export function decideApiToken(command: ApiTokenCommand, state: ApiTokenState): ApiTokenEvent[] {
  switch (command.type) {
    case 'IssueToken': {
      if (state.status !== 'none') throw new DomainError('conflict', 'This token id is already in use');
      const scopes = [...new Set(command.scopes)];
      if (scopes.length === 0)
        throw new DomainError('invalid', 'scopes must name at least one of read, purchase, download, sell');
      const unknown = scopes.filter((s) => !SCOPES.includes(s));
      if (unknown.length > 0) throw new DomainError('invalid', `scopes has unknown values: ${unknown.join(', ')}`);
      const name = command.name.trim();
      if (codePointLength(name) < 1 || codePointLength(name) > 100 || !isSingleLineText(name))
        throw new DomainError('invalid', 'name must be 1-100 characters on one line, without control characters');
      const days = command.expiresInDays ?? null;
      if (days !== null && (!Number.isInteger(days) || days < 1 || days > MAX_EXPIRY_DAYS)) {
        throw new DomainError('invalid', `expiresInDays must be an integer from 1 to ${MAX_EXPIRY_DAYS}`);
      }
      return [
        {
          type: AuthEvents.TokenIssued,
          data: {
            tokenId: command.tokenId,
            userId: command.userId,
            name,
            scopes: SCOPES.filter((s) => scopes.includes(s)),
            tokenHash: command.tokenHash,
            policyId: command.policyId ?? null,
            issuedAt: command.now.toISOString(),
            expiresAt: cappedExpiry(
              days === null ? null : new Date(command.now.getTime() + days * DAY_MS),
              command.notAfter ?? null,
            ),
            via: command.via,
          },
        },
      ];
    }
    case 'RevokeToken': {
      // Someone else's token does not exist, as far as the caller can tell.
      if (state.status === 'none' || state.userId !== command.byUserId) throw new DomainError('not_found', 'Token not found');
      if (state.status === 'revoked') return [];
      return [
        {
          type: AuthEvents.TokenRevoked,
          data: {
            tokenId: state.tokenId,
            userId: state.userId,
            revokedAt: command.now.toISOString(),
            reason: command.reason ?? 'revoked',
          },
        },
      ];
    }
  }
}

export function evolveApiToken(state: ApiTokenState, event: ApiTokenEvent): ApiTokenState {
  switch (event.type) {
    case AuthEvents.TokenIssued:
      return {
        status: 'active',
        tokenId: event.data.tokenId,
        userId: event.data.userId,
        scopes: event.data.scopes,
        expiresAt: event.data.expiresAt ? Date.parse(event.data.expiresAt) : null,
      };
    case AuthEvents.TokenRevoked:
      return { status: 'revoked', tokenId: event.data.tokenId, userId: event.data.userId };
  }
}

function cappedExpiry(requested: Date | null, notAfter: Date | null): string | null {
  if (notAfter === null) return requested?.toISOString() ?? null;
  return (requested === null || requested > notAfter ? notAfter : requested).toISOString();
}

/** Whether a token in this state lets a request through at `now`. */
export function isUsable(state: ApiTokenState, now: Date): boolean {
  return state.status === 'active' && (state.expiresAt === null || now.getTime() < state.expiresAt);
}
