import {
  decideUser,
  evolveUser,
  initialUserState,
  UserCommand,
  UserEvent,
  UserState,
} from '../../../src/modules/users/domain/user.decider';
import { Decider } from '../../../src/event-store/fold-stream';
import { at, errorOf, givenWhenThen, t0 } from '../../support/decider';

const userId = '0d6b8f5e-2a4c-4f6e-9b1a-3c5d7e9f1a2b';

const userDecider: Decider<UserCommand, UserState, UserEvent> = {
  decide: decideUser,
  evolve: evolveUser,
  initialState: initialUserState,
};
const { fold, when, then } = givenWhenThen(userDecider);

// Personal fields arrive sealed; any opaque string stands for one here.
const register = (fields: Partial<Extract<UserCommand, { type: 'RegisterUser' }>> = {}): UserCommand => ({
  type: 'RegisterUser',
  userId,
  email: 'sealed:email',
  name: 'sealed:name',
  emailVerified: false,
  now: t0,
  ...fields,
});
const changeProfile = (fields: { name?: string; avatarUrl?: string | null }, now = at(10)): UserCommand => ({
  type: 'ChangeProfile',
  ...fields,
  now,
});
const deleteUser = (now = at(20)): UserCommand => ({ type: 'DeleteUser', now });

const registered = then([], register());
const deleted = then(registered, deleteUser());

describe('user decider', () => {
  it('starts with no user', () => {
    expect(fold([])).toEqual({ status: 'none' });
  });

  describe('RegisterUser', () => {
    it('registers a user with no avatar, as given', () => {
      expect(when([], register())).toEqual([
        {
          type: 'UserRegistered',
          data: {
            userId,
            email: 'sealed:email',
            name: 'sealed:name',
            avatarUrl: null,
            emailVerified: false,
            registeredAt: t0.toISOString(),
          },
        },
      ]);
      expect(fold(registered)).toEqual({ status: 'active', userId, tokenIds: [] });
    });

    it('registers a user without a name, and one whose email is verified', () => {
      const [event] = when([], register({ name: null, emailVerified: true }));
      expect(event.data).toMatchObject({ name: null, emailVerified: true });
    });

    it('refuses to register the same user twice (conflict)', () => {
      const error = errorOf(() => when(registered, register({ now: at(5) })));
      expect(error.code).toBe('conflict');
    });

    it('refuses to register a deleted user again (conflict)', () => {
      expect(errorOf(() => when(deleted, register({ now: at(30) }))).code).toBe('conflict');
    });
  });

  describe('ChangeProfile', () => {
    it('changes the name and the avatar', () => {
      expect(when(registered, changeProfile({ name: 'sealed:new-name', avatarUrl: 'sealed:avatar' }))).toEqual([
        {
          type: 'UserProfileChanged',
          data: { userId, name: 'sealed:new-name', avatarUrl: 'sealed:avatar', changedAt: at(10).toISOString() },
        },
      ]);
    });

    it('records only the fields given', () => {
      const [nameOnly] = when(registered, changeProfile({ name: 'sealed:new-name' }));
      expect(nameOnly.data).toEqual({ userId, name: 'sealed:new-name', changedAt: at(10).toISOString() });
      expect(nameOnly.data).not.toHaveProperty('avatarUrl');
      const [avatarOnly] = when(registered, changeProfile({ avatarUrl: 'sealed:avatar' }));
      expect(avatarOnly.data).toEqual({ userId, avatarUrl: 'sealed:avatar', changedAt: at(10).toISOString() });
    });

    it('removes the avatar when it is null', () => {
      const [event] = when(registered, changeProfile({ avatarUrl: null }));
      expect(event.data).toEqual({ userId, avatarUrl: null, changedAt: at(10).toISOString() });
    });

    it('changes nothing when no field is given', () => {
      expect(when(registered, changeProfile({}))).toEqual([]);
    });

    it('keeps the user active', () => {
      const changed = then(registered, changeProfile({ name: 'sealed:new-name' }));
      expect(fold(changed)).toEqual({ status: 'active', userId, tokenIds: [] });
    });

    it('refuses a user that does not exist, or no longer does (not_found)', () => {
      expect(errorOf(() => when([], changeProfile({ name: 'sealed:name' }))).code).toBe('not_found');
      expect(errorOf(() => when(deleted, changeProfile({ name: 'sealed:name' }, at(30)))).code).toBe('not_found');
      // Even an empty change: a deleted account has no profile left to leave alone.
      expect(errorOf(() => when(deleted, changeProfile({}, at(30)))).code).toBe('not_found');
    });
  });

  describe('GrantToken', () => {
    const grant = (tokenId: string, seconds = 30) => ({ type: 'GrantToken' as const, tokenId, now: at(seconds) });

    it('grants a token to an active account, once per token id', () => {
      expect(when(registered, grant('t1'))).toEqual([
        { type: 'UserTokenGranted', data: { userId, tokenId: 't1', grantedAt: at(30).toISOString() } },
      ]);
      const granted = then(registered, grant('t1'));
      expect(when(granted, grant('t1'))).toEqual([]);
      expect(fold(granted)).toEqual({ status: 'active', userId, tokenIds: ['t1'] });
    });

    it('refuses an account that is deleted (unauthenticated) or never existed (not_found)', () => {
      expect(errorOf(() => when(deleted, grant('t1'))).code).toBe('unauthenticated');
      expect(errorOf(() => when([], grant('t1'))).code).toBe('not_found');
    });

    it('makes the deletion name every token granted, so none outlives the account', () => {
      const granted = then(then(registered, grant('t1')), grant('t2', 31));
      expect(when(granted, deleteUser())).toEqual([
        { type: 'UserDeleted', data: { userId, deletedAt: at(20).toISOString(), tokenIds: ['t1', 't2'] } },
      ]);
    });
  });

  describe('DeleteUser', () => {
    it('deletes an active user', () => {
      expect(when(registered, deleteUser())).toEqual([
        { type: 'UserDeleted', data: { userId, deletedAt: at(20).toISOString(), tokenIds: [] } },
      ]);
      expect(fold(deleted)).toEqual({ status: 'deleted', userId });
    });

    it('deletes a user whose profile changed', () => {
      const changed = then(registered, changeProfile({ name: 'sealed:new-name' }));
      expect(when(changed, deleteUser()).map((e) => e.type)).toEqual(['UserDeleted']);
    });

    it('refuses a user that does not exist (not_found)', () => {
      expect(errorOf(() => when([], deleteUser())).code).toBe('not_found');
    });

    it('refuses to delete twice (not_found): deletion is not repeated', () => {
      expect(errorOf(() => when(deleted, deleteUser(at(30)))).code).toBe('not_found');
    });
  });

  describe('evolve', () => {
    it('keeps only the user id and the status: profile changes leave the state as it is', () => {
      const state = fold(registered);
      const change: UserEvent = {
        type: 'UserProfileChanged',
        data: { userId, name: 'sealed:new-name', changedAt: at(10).toISOString() },
      };
      expect(evolveUser(state, change)).toBe(state);
    });

    it('folds a whole history', () => {
      const history = then(then(registered, changeProfile({ avatarUrl: 'sealed:avatar' })), deleteUser(at(40)));
      expect(history.map((e) => e.type)).toEqual(['UserRegistered', 'UserProfileChanged', 'UserDeleted']);
      expect(fold(history)).toEqual({ status: 'deleted', userId });
    });
  });
});
