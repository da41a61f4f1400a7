import { defineEventCatalogue } from '../../event-store/event-catalogue';

/**
 * Every event type the orgs module appends. An organization is one stream,
 * `org-<orgId>`: its profile, its members and its open invitations, so every
 * role rule is decided on one consistent state.
 */
export const OrgEvents = defineEventCatalogue('orgs', {
  OrgCreated: { schemaVersion: 1 },
  /** Slug uniqueness: the reservation stream `org-slug-<slug>`; a slug is never released. */
  OrgSlugReserved: { schemaVersion: 1 },
  OrgProfileChanged: { schemaVersion: 1 },
  OrgDeleted: { schemaVersion: 1 },
  /** Carries the hash of the invitation token, never the token; the e-mail is sealed under the invitation's key. */
  OrgMemberInvited: { schemaVersion: 1 },
  OrgMemberJoined: { schemaVersion: 1 },
  OrgMemberRoleChanged: { schemaVersion: 1 },
  OrgMemberRemoved: { schemaVersion: 1 },
});
