import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { RecordedEvent } from '../../../event-store/event-store';
import { AsProjection, Projection } from '../../../projections/runner/processor';
import { OrgEvent } from '../domain/org.decider';
import { OrgEvents } from '../events';

/**
 * `orgs`, `org_members`, `org_invitations`: live organizations, who belongs to
 * them, and the open invitation per e-mail. A deleted org's rows go (its slug
 * stays reserved in the log). Used and replaced invitations are removed, so the
 * table holds only tokens that may still be accepted (expiry is checked on use).
 */
@Injectable()
@AsProjection()
export class OrgsProjection implements Projection {
  readonly name = 'orgs';
  readonly eventTypes = [
    OrgEvents.OrgCreated,
    OrgEvents.OrgProfileChanged,
    OrgEvents.OrgDeleted,
    OrgEvents.OrgMemberInvited,
    OrgEvents.OrgMemberJoined,
    OrgEvents.OrgMemberRoleChanged,
    OrgEvents.OrgMemberRemoved,
  ];

  async apply(event: RecordedEvent, tx: EntityManager): Promise<void> {
    const e = event as unknown as OrgEvent;
    switch (e.type) {
      case OrgEvents.OrgCreated:
        await tx.query('INSERT INTO orgs (id, slug, name, created_at) VALUES ($1, $2, $3, $4) ON CONFLICT (id) DO NOTHING', [
          e.data.orgId,
          e.data.slug,
          e.data.name,
          e.data.createdAt,
        ]);
        return;
      case OrgEvents.OrgProfileChanged:
        if (e.data.name !== undefined) await tx.query('UPDATE orgs SET name = $2 WHERE id = $1', [e.data.orgId, e.data.name]);
        if (e.data.avatarUrl !== undefined)
          await tx.query('UPDATE orgs SET avatar_url = $2 WHERE id = $1', [e.data.orgId, e.data.avatarUrl]);
        return;
      case OrgEvents.OrgDeleted:
        await tx.query('DELETE FROM orgs WHERE id = $1', [e.data.orgId]);
        return;
      case OrgEvents.OrgMemberInvited:
        // A re-invitation of the same address replaces the earlier one.
        await tx.query('DELETE FROM org_invitations WHERE org_id = $1 AND lower(email) = lower($2)', [
          e.data.orgId,
          e.data.email,
        ]);
        await tx.query(
          `INSERT INTO org_invitations (id, org_id, email, role, token_hash, invited_by, expires_at, created_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
          [
            e.data.invitationId,
            e.data.orgId,
            e.data.email,
            e.data.role,
            e.data.tokenHash,
            e.data.invitedBy,
            e.data.expiresAt,
            e.data.invitedAt,
          ],
        );
        return;
      case OrgEvents.OrgMemberJoined:
        await tx.query(
          `INSERT INTO org_members (org_id, user_id, role, joined_at) VALUES ($1, $2, $3, $4)
           ON CONFLICT (org_id, user_id) DO UPDATE SET role = EXCLUDED.role`,
          [e.data.orgId, e.data.userId, e.data.role, e.data.joinedAt],
        );
        if (e.data.invitationId) await tx.query('DELETE FROM org_invitations WHERE id = $1', [e.data.invitationId]);
        return;
      case OrgEvents.OrgMemberRoleChanged:
        await tx.query('UPDATE org_members SET role = $3 WHERE org_id = $1 AND user_id = $2', [
          e.data.orgId,
          e.data.userId,
          e.data.role,
        ]);
        return;
      case OrgEvents.OrgMemberRemoved:
        await tx.query('DELETE FROM org_members WHERE org_id = $1 AND user_id = $2', [e.data.orgId, e.data.userId]);
        return;
    }
  }

  async reset(tx: EntityManager): Promise<void> {
    await tx.query('DELETE FROM org_invitations');
    await tx.query('DELETE FROM org_members');
    await tx.query('DELETE FROM orgs');
  }
}
