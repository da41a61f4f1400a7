import { DomainError } from '../../../platform/errors/domain-error';
import { codePointLength, isSingleLineText } from '../../../platform/text/text-rules';
import { UserEvents } from '../events';

/**
 * A user account as a pure decider (stream `user-<id>`). Personal fields
 * arrive sealed (see PersonalDataVault) and are stored as given. Tokens are
 * granted on this stream, so a grant and the deletion are decided in one
 * order: no token is granted after the account is deleted, and the deletion
 * names every token to revoke.
 */
export type UserEvent =
  | {
      type: typeof UserEvents.UserRegistered;
      data: {
        userId: string;
        email: string;
        name: string | null;
        avatarUrl: string | null;
        emailVerified: boolean;
        registeredAt: string;
      };
    }
  | {
      type: typeof UserEvents.UserProfileChanged;
      data: { userId: string; name?: string | null; avatarUrl?: string | null; changedAt: string };
    }
  | { type: typeof UserEvents.UserTokenGranted; data: { userId: string; tokenId: string; grantedAt: string } }
  | { type: typeof UserEvents.UserDeleted; data: { userId: string; deletedAt: string; tokenIds: string[] } };

export type UserState =
  { status: 'none' } | { status: 'active'; userId: string; tokenIds: string[] } | { status: 'deleted'; userId: string };

export type UserCommand =
  | { type: 'RegisterUser'; userId: string; email: string; name: string | null; emailVerified: boolean; now: Date }
  | { type: 'ChangeProfile'; name?: string | null; avatarUrl?: string | null; now: Date }
  | { type: 'GrantToken'; tokenId: string; now: Date }
  | { type: 'DeleteUser'; now: Date };

export const initialUserState: UserState = { status: 'none' };

export const userStreamId = (userId: string) => `user-${userId}`;

export function decideUser(command: UserCommand, state: UserState): UserEvent[] {
  switch (command.type) {
    case 'RegisterUser':
      if (state.status !== 'none') throw new DomainError('conflict', 'This user already exists');
      return [
        {
          type: UserEvents.UserRegistered,
          data: {
            userId: command.userId,
            email: command.email,
            name: command.name,
            avatarUrl: null,
            emailVerified: command.emailVerified,
            registeredAt: command.now.toISOString(),
          },
        },
      ];
    case 'ChangeProfile': {
      if (state.status !== 'active') throw new DomainError('not_found', 'User not found');
      const change: Extract<UserEvent, { type: 'UserProfileChanged' }>['data'] = {
        userId: state.userId,
        changedAt: command.now.toISOString(),
      };
      if (command.name !== undefined) change.name = command.name;
      if (command.avatarUrl !== undefined) change.avatarUrl = command.avatarUrl;
      if (change.name === undefined && change.avatarUrl === undefined) return [];
      return [{ type: UserEvents.UserProfileChanged, data: change }];
    }
    case 'GrantToken':
      if (state.status === 'deleted') throw new DomainError('unauthenticated', 'This account has been deleted');
      if (state.status !== 'active') throw new DomainError('not_found', 'User not found');
      if (state.tokenIds.includes(command.tokenId)) return [];
      return [
        {
          type: UserEvents.UserTokenGranted,
          data: { userId: state.userId, tokenId: command.tokenId, grantedAt: command.now.toISOString() },
        },
      ];
    case 'DeleteUser':
      if (state.status !== 'active') throw new DomainError('not_found', 'User not found');
      return [
        {
          type: UserEvents.UserDeleted,
          data: { userId: state.userId, deletedAt: command.now.toISOString(), tokenIds: state.tokenIds },
        },
      ];
  }
}

export function evolveUser(state: UserState, event: UserEvent): UserState {
  switch (event.type) {
    case UserEvents.UserRegistered:
      return { status: 'active', userId: event.data.userId, tokenIds: [] };
    case UserEvents.UserProfileChanged:
      return state;
    case UserEvents.UserTokenGranted:
      return state.status === 'active' ? { ...state, tokenIds: [...state.tokenIds, event.data.tokenId] } : state;
    case UserEvents.UserDeleted:
      return { status: 'deleted', userId: event.data.userId };
  }
}

export const userDecider = { decide: decideUser, evolve: evolveUser, initialState: initialUserState };

/** A display name as stored: trimmed, 1-100 characters on one line. */
export function validUserName(name: string): string {
  const trimmed = name.trim();
  if (codePointLength(trimmed) < 1 || codePointLength(trimmed) > 100 || !isSingleLineText(trimmed))
    throw new DomainError('invalid', 'name must be 1-100 characters on one line, without control characters');
  return trimmed;
}
