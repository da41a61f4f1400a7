import { INVITATION_LIFETIME_MS, orgDecider, OrgEvent, OrgRole } from '../../../src/modules/orgs/domain/org.decider';
import { OrgEvents } from '../../../src/modules/orgs/events';
import { at, errorOf, givenWhenThen, t0 } from '../../support/decider';

const { when, then, fold } = givenWhenThen(orgDecider);
const ORG = 'org-1';

const created = (): OrgEvent[] =>
  when([], { type: 'CreateOrg', orgId: ORG, slug: 'team', name: 'Team', ownerId: 'owner', now: t0 });

const joined = (userId: string, role: OrgRole): OrgEvent => ({
  type: OrgEvents.OrgMemberJoined,
  data: { orgId: ORG, userId, role, invitationId: null, joinedAt: t0.toISOString() },
});

/** owner, admin, admin2, member, member2 */
const team = (): OrgEvent[] => [
  ...created(),
  joined('admin', 'admin'),
  joined('admin2', 'admin'),
  joined('member', 'member'),
  joined('member2', 'member'),
];

const changeRole = (actorId: string, userId: string, role: OrgRole) =>
  ({ type: 'ChangeMemberRole', actorId, userId, role, now: at(1) }) as const;
const remove = (actorId: string, userId: string) => ({ type: 'RemoveMember', actorId, userId, now: at(1) }) as const;

describe('the org decider', () => {
  it('makes the creator the owner', () => {
    const state = fold(created());
    expect(state).toMatchObject({ status: 'live', slug: 'team', members: { owner: 'owner' } });
  });

  it('answers not found to non-members, whatever they ask', () => {
    for (const command of [
      changeRole('stranger', 'member', 'admin'),
      remove('stranger', 'member'),
      { type: 'ChangeProfile', actorId: 'stranger', name: 'x', now: at(1) } as const,
      { type: 'DeleteOrg', actorId: 'stranger', walletBalanceCents: 0, now: at(1) } as const,
    ]) {
      expect(errorOf(() => when(team(), command)).code).toBe('not_found');
    }
  });

  it('lets an admin manage members but not owners, its own role, or make owners', () => {
    expect(when(team(), changeRole('admin', 'member', 'admin'))).toHaveLength(1);
    expect(when(team(), remove('admin', 'admin2'))).toHaveLength(1);
    expect(errorOf(() => when(team(), changeRole('admin', 'member', 'owner'))).code).toBe('forbidden');
    expect(errorOf(() => when(team(), changeRole('admin', 'owner', 'member'))).code).toBe('forbidden');
    expect(errorOf(() => when(team(), remove('admin', 'owner'))).code).toBe('forbidden');
    expect(errorOf(() => when(team(), changeRole('admin', 'admin', 'member'))).code).toBe('forbidden');
  });

  it('lets members only leave', () => {
    expect(errorOf(() => when(team(), changeRole('member', 'member2', 'admin'))).code).toBe('forbidden');
    expect(errorOf(() => when(team(), remove('member', 'member2'))).code).toBe('forbidden');
    expect(when(team(), remove('member', 'member'))).toEqual([
      expect.objectContaining({ type: OrgEvents.OrgMemberRemoved, data: expect.objectContaining({ userId: 'member' }) }),
    ]);
  });

  it('never removes nor demotes the last owner, but a second owner frees the first', () => {
    expect(errorOf(() => when(team(), changeRole('owner', 'owner', 'admin'))).message).toMatch(/last owner/);
    expect(errorOf(() => when(team(), remove('owner', 'owner'))).message).toMatch(/last owner/);
    const twoOwners = then(team(), changeRole('owner', 'admin', 'owner'));
    expect(when(twoOwners, changeRole('owner', 'owner', 'admin'))).toHaveLength(1);
    expect(when(twoOwners, remove('admin', 'owner'))).toHaveLength(1);
  });

  it('refuses to delete an org whose wallet holds money, and only owners delete', () => {
    const error = errorOf(() => when(team(), { type: 'DeleteOrg', actorId: 'owner', walletBalanceCents: 1, now: at(1) }));
    expect(error.code).toBe('conflict');
    expect(error.message).toMatch(/wallet/);
    expect(errorOf(() => when(team(), { type: 'DeleteOrg', actorId: 'admin', walletBalanceCents: 0, now: at(1) })).code).toBe(
      'forbidden',
    );
    const deleted = then(team(), { type: 'DeleteOrg', actorId: 'owner', walletBalanceCents: 0, now: at(1) });
    expect(fold(deleted).status).toBe('deleted');
  });

  describe('invitations', () => {
    const invite = (invitationId: string, email: string, tokenHash: string, now = at(1)) =>
      ({
        type: 'InviteMember',
        actorId: 'admin',
        invitationId,
        email,
        storedEmail: email,
        role: 'member',
        tokenHash,
        now,
      }) as const;
    const accept = (userId: string, userEmail: string, tokenHash: string, now = at(2)) =>
      ({ type: 'AcceptInvitation', userId, userEmail, tokenHash, now }) as const;

    it('joins the invited address once, with the invited role', () => {
      const invited = then(team(), invite('i1', 'New@Example.com', 'h1'));
      const accepted = then(invited, accept('new', 'new@example.com', 'h1'));
      expect(fold(accepted)).toMatchObject({ members: { new: 'member' }, invitations: {} });
      expect(errorOf(() => when(accepted, accept('new', 'new@example.com', 'h1'))).code).toBe('not_found');
    });

    it('refuses another address (403), an expired token and a replaced one (404)', () => {
      const invited = then(team(), invite('i1', 'new@example.com', 'h1'));
      expect(errorOf(() => when(invited, accept('other', 'other@example.com', 'h1'))).code).toBe('forbidden');
      const late = new Date(at(1).getTime() + INVITATION_LIFETIME_MS);
      expect(errorOf(() => when(invited, accept('new', 'new@example.com', 'h1', late))).code).toBe('not_found');
      const reinvited = then(invited, invite('i2', 'NEW@example.com', 'h2'));
      expect(errorOf(() => when(reinvited, accept('new', 'new@example.com', 'h1'))).code).toBe('not_found');
      expect(when(reinvited, accept('new', 'new@example.com', 'h2'))).toHaveLength(1);
    });

    it('lets only admins and owners invite', () => {
      expect(errorOf(() => when(team(), { ...invite('i1', 'a@example.com', 'h'), actorId: 'member' })).code).toBe('forbidden');
    });
  });
});
