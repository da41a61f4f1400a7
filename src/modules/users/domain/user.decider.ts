import { DomainError } from '../../../platform/errors/domain-error';

/**
 * A user account as a pure decider (stream `user-<id>`). Personal fields
 * arrive sealed (see PersonalDataVault) and are stored as given.
 */
export type UserEvent =
  | {
      type: 'UserRegistered';
      data: {
        userId: string;
        email: string;
        name: string | null;
        avatarUrl: string | null;
        emailVerified: boolean;
        registeredAt: string;
      };
    }
  | { type: 'UserProfileChanged'; data: { userId: string; name?: string; avatarUrl?: string | null; changedAt: string } }
  | { type: 'UserDeleted'; data: { userId: string; deletedAt: string } };

export type UserState = { status: 'none' } | { status: 'active'; userId: string } | { status: 'deleted'; userId: string };

export type UserCommand =
  | { type: 'RegisterUser'; userId: string; email: string; name: string | null; emailVerified: boolean; now: Date }
  | { type: 'ChangeProfile'; name?: string; avatarUrl?: string | null; now: Date }
  | { type: 'DeleteUser'; now: Date };

export const initialUserState: UserState = { status: 'none' };

export function decideUser(command: UserCommand, state: UserState): UserEvent[] {
  switch (command.type) {
    case 'RegisterUser':
      if (state.status !== 'none') throw new DomainError('conflict', 'This user already exists');
      return [
        {
          type: 'UserRegistered',
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
      return [{ type: 'UserProfileChanged', data: change }];
    }
    case 'DeleteUser':
      if (state.status !== 'active') throw new DomainError('not_found', 'User not found');
      return [{ type: 'UserDeleted', data: { userId: state.userId, deletedAt: command.now.toISOString() } }];
  }
}

export function evolveUser(state: UserState, event: UserEvent): UserState {
  switch (event.type) {
    case 'UserRegistered':
      return { status: 'active', userId: event.data.userId };
    case 'UserProfileChanged':
      return state;
    case 'UserDeleted':
      return { status: 'deleted', userId: event.data.userId };
  }
}
