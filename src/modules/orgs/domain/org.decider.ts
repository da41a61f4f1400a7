import { Decider } from '../../../event-store/fold-stream';
import { DomainError } from '../../../platform/errors/domain-error';
import { OrgEvents } from '../events';

export const ORG_ROLES = ['owner', 'admin', 'member'] as const;
export type OrgRole = (typeof ORG_ROLES)[number];
export const INVITABLE_ROLES = ['admin', 'member'] as const;
export type InvitableRole = (typeof INVITABLE_ROLES)[number];

/** The spec's invitation lifetime. */
export const INVITATION_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

const RANK: Record<OrgRole, number> = { owner: 3, admin: 2, member: 1 };

export type OrgEvent =
  | {
      type: typeof OrgEvents.OrgCreated;
      data: { orgId: string; slug: string; name: string; ownerId: string; createdAt: string };
    }
  | {
      type: typeof OrgEvents.OrgProfileChanged;
      data: { orgId: string; name?: string; avatarUrl?: string | null; changedBy: string; changedAt: string };
    }
  | { type: typeof OrgEvents.OrgDeleted; data: { orgId: string; slug: string; deletedBy: string; deletedAt: string } }
  | {
      type: typeof OrgEvents.OrgMemberInvited;
      data: {
        orgId: string;
        invitationId: string;
        /** Sealed in the log; folded and projected opened. */
        email: string;
        role: InvitableRole;
        tokenHash: string;
        invitedBy: string;
        invitedAt: string;
        expiresAt: string;
      };
    }
  | {
      type: typeof OrgEvents.OrgMemberJoined;
      data: { orgId: string; userId: string; role: OrgRole; invitationId: string | null; joinedAt: string };
    }
  | {
      type: typeof OrgEvents.OrgMemberRoleChanged;
      data: { orgId: string; userId: string; role: OrgRole; changedBy: string; changedAt: string };
    }
  | { type: typeof OrgEvents.OrgMemberRemoved; data: { orgId: string; userId: string; removedBy: string; removedAt: string } };

export interface OpenInvitation {
  invitationId: string;
  email: string;
  role: InvitableRole;
  tokenHash: string;
  expiresAt: string;
}

export interface LiveOrg {
  status: 'live';
  orgId: string;
  slug: string;
  name: string;
  avatarUrl: string | null;
  members: Record<string, OrgRole>;
  /** The one open invitation per e-mail (lower-cased): a re-invitation replaces it. */
  invitations: Record<string, OpenInvitation>;
}

export type OrgState = { status: 'none' } | { status: 'deleted'; orgId: string } | LiveOrg;

export type OrgCommand =
  | { type: 'CreateOrg'; orgId: string; slug: string; name: string; ownerId: string; now: Date }
  | { type: 'ChangeProfile'; actorId: string; name?: string; avatarUrl?: string | null; now: Date }
  /** `walletBalanceCents`: the org wallet's balance, read by the handler. */
  | { type: 'DeleteOrg'; actorId: string; walletBalanceCents: number; now: Date }
  | {
      type: 'InviteMember';
      actorId: string;
      invitationId: string;
      email: string;
      /** The e-mail as stored in the event (sealed); `email` is compared. */
      storedEmail: string;
      role: InvitableRole;
      tokenHash: string;
      now: Date;
    }
  | { type: 'AcceptInvitation'; userId: string; userEmail: string | null; tokenHash: string; now: Date }
  | { type: 'ChangeMemberRole'; actorId: string; userId: string; role: OrgRole; now: Date }
  | { type: 'RemoveMember'; actorId: string; userId: string; now: Date };

export const orgStreamId = (orgId: string): string => `org-${orgId}`;
export const orgSlugStreamId = (slug: string): string => `org-slug-${slug}`;

/** Non-members are told nothing: the org's existence is not revealed. */
export const ORG_NOT_FOUND = 'Organization not found';
export const INVITATION_NOT_FOUND = 'Invitation not found, expired or already used';

const normalEmail = (email: string): string => email.trim().toLowerCase();

function decide(command: OrgCommand, state: OrgState): OrgEvent[] {
  if (command.type === 'CreateOrg') {
    if (state.status !== 'none') throw new DomainError('conflict', 'This organization id is already in use');
    const createdAt = command.now.toISOString();
    return [
      {
        type: OrgEvents.OrgCreated,
        data: { orgId: command.orgId, slug: command.slug, name: command.name, ownerId: command.ownerId, createdAt },
      },
      {
        type: OrgEvents.OrgMemberJoined,
        data: { orgId: command.orgId, userId: command.ownerId, role: 'owner', invitationId: null, joinedAt: createdAt },
      },
    ];
  }
  if (state.status !== 'live') {
    throw new DomainError('not_found', command.type === 'AcceptInvitation' ? INVITATION_NOT_FOUND : ORG_NOT_FOUND);
  }
  const org = state;
  const at = command.now.toISOString();
  switch (command.type) {
    case 'ChangeProfile': {
      requireRole(org, command.actorId, 'admin', 'Only an admin or owner may change the organization');
      const data: Extract<OrgEvent, { type: 'OrgProfileChanged' }>['data'] = {
        orgId: org.orgId,
        changedBy: command.actorId,
        changedAt: at,
      };
      if (command.name !== undefined && command.name !== org.name) data.name = command.name;
      if (command.avatarUrl !== undefined && command.avatarUrl !== org.avatarUrl) data.avatarUrl = command.avatarUrl;
      if (data.name === undefined && data.avatarUrl === undefined) return [];
      return [{ type: OrgEvents.OrgProfileChanged, data }];
    }
    case 'DeleteOrg': {
      requireRole(org, command.actorId, 'owner', 'Only an owner may delete the organization');
      if (command.walletBalanceCents > 0)
        throw new DomainError(
          'conflict',
          `The organization's wallet still holds ${command.walletBalanceCents} cents; it cannot be deleted while its wallet holds money`,
        );
      return [
        { type: OrgEvents.OrgDeleted, data: { orgId: org.orgId, slug: org.slug, deletedBy: command.actorId, deletedAt: at } },
      ];
    }
    case 'InviteMember': {
      requireRole(org, command.actorId, 'admin', 'Only an admin or owner may invite members');
      return [
        {
          type: OrgEvents.OrgMemberInvited,
          data: {
            orgId: org.orgId,
            invitationId: command.invitationId,
            email: command.storedEmail,
            role: command.role,
            tokenHash: command.tokenHash,
            invitedBy: command.actorId,
            invitedAt: at,
            expiresAt: new Date(command.now.getTime() + INVITATION_LIFETIME_MS).toISOString(),
          },
        },
      ];
    }
    case 'AcceptInvitation': {
      const invitation = Object.values(org.invitations).find((open) => open.tokenHash === command.tokenHash);
      if (!invitation || Date.parse(invitation.expiresAt) <= command.now.getTime())
        throw new DomainError('not_found', INVITATION_NOT_FOUND);
      if (command.userEmail === null || normalEmail(command.userEmail) !== normalEmail(invitation.email))
        throw new DomainError('forbidden', 'This invitation was sent to another e-mail address than your account’s');
      if (org.members[command.userId]) throw new DomainError('conflict', 'You are already a member of this organization');
      return [
        {
          type: OrgEvents.OrgMemberJoined,
          data: {
            orgId: org.orgId,
            userId: command.userId,
            role: invitation.role,
            invitationId: invitation.invitationId,
            joinedAt: at,
          },
        },
      ];
    }
    case 'ChangeMemberRole': {
      const actorRole = requireRole(org, command.actorId, 'admin', 'Only an admin or owner may change roles');
      const current = org.members[command.userId];
      if (!current) throw new DomainError('not_found', 'Member not found');
      if (actorRole === 'admin') {
        if (command.userId === command.actorId) throw new DomainError('forbidden', 'An admin cannot change its own role');
        if (current === 'owner') throw new DomainError('forbidden', 'An admin cannot change an owner’s role');
        if (command.role === 'owner') throw new DomainError('forbidden', 'An admin cannot make anyone an owner');
      }
      if (current === command.role) return [];
      if (current === 'owner' && ownerCount(org) === 1)
        throw new DomainError('forbidden', 'The last owner cannot be demoted: make another member owner first');
      return [
        {
          type: OrgEvents.OrgMemberRoleChanged,
          data: { orgId: org.orgId, userId: command.userId, role: command.role, changedBy: command.actorId, changedAt: at },
        },
      ];
    }
    case 'RemoveMember': {
      const actorRole = org.members[command.actorId];
      if (!actorRole) throw new DomainError('not_found', ORG_NOT_FOUND);
      const target = org.members[command.userId];
      if (!target) throw new DomainError('not_found', 'Member not found');
      const leaving = command.userId === command.actorId;
      if (!leaving) {
        if (RANK[actorRole] < RANK.admin) throw new DomainError('forbidden', 'Only an admin or owner may remove other members');
        if (actorRole === 'admin' && target === 'owner') throw new DomainError('forbidden', 'An admin cannot remove an owner');
      }
      if (target === 'owner' && ownerCount(org) === 1)
        throw new DomainError('forbidden', 'The last owner cannot be removed: make another member owner first');
      return [
        {
          type: OrgEvents.OrgMemberRemoved,
          data: { orgId: org.orgId, userId: command.userId, removedBy: command.actorId, removedAt: at },
        },
      ];
    }
  }
}

/** The actor's role when it is at least `least`; a non-member is not told the org exists. */
function requireRole(org: LiveOrg, actorId: string, least: OrgRole, refusal: string): OrgRole {
  const role = org.members[actorId];
  if (!role) throw new DomainError('not_found', ORG_NOT_FOUND);
  if (RANK[role] < RANK[least]) throw new DomainError('forbidden', refusal);
  return role;
}

const ownerCount = (org: LiveOrg): number => Object.values(org.members).filter((role) => role === 'owner').length;

function evolve(state: OrgState, event: OrgEvent): OrgState {
  if (event.type === OrgEvents.OrgCreated) {
    const { orgId, slug, name } = event.data;
    return { status: 'live', orgId, slug, name, avatarUrl: null, members: {}, invitations: {} };
  }
  if (state.status !== 'live') return state;
  switch (event.type) {
    case OrgEvents.OrgProfileChanged:
      return {
        ...state,
        name: event.data.name ?? state.name,
        avatarUrl: event.data.avatarUrl !== undefined ? event.data.avatarUrl : state.avatarUrl,
      };
    case OrgEvents.OrgDeleted:
      return { status: 'deleted', orgId: state.orgId };
    case OrgEvents.OrgMemberInvited: {
      const { invitationId, email, role, tokenHash, expiresAt } = event.data;
      return {
        ...state,
        invitations: { ...state.invitations, [normalEmail(email)]: { invitationId, email, role, tokenHash, expiresAt } },
      };
    }
    case OrgEvents.OrgMemberJoined: {
      // A used invitation is gone: its token reads as unknown from now on.
      const invitations = Object.fromEntries(
        Object.entries(state.invitations).filter(([, open]) => open.invitationId !== event.data.invitationId),
      );
      return { ...state, members: { ...state.members, [event.data.userId]: event.data.role }, invitations };
    }
    case OrgEvents.OrgMemberRoleChanged:
      return { ...state, members: { ...state.members, [event.data.userId]: event.data.role } };
    case OrgEvents.OrgMemberRemoved: {
      const { [event.data.userId]: _removed, ...members } = state.members;
      return { ...state, members };
    }
    default:
      return state;
  }
}

export const orgDecider: Decider<OrgCommand, OrgState, OrgEvent> = {
  decide,
  evolve,
  initialState: { status: 'none' },
};

/** The member's role, or null for anyone else (and for a deleted org). */
export const roleIn = (state: OrgState, userId: string): OrgRole | null =>
  state.status === 'live' ? (state.members[userId] ?? null) : null;

export const atLeast = (role: OrgRole | null, least: OrgRole): boolean => role !== null && RANK[role] >= RANK[least];
