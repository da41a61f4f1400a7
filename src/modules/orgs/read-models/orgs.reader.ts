import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { DomainError } from '../../../platform/errors/domain-error';
import { atLeast, ORG_NOT_FOUND, OrgRole } from '../domain/org.decider';

export interface OrgRow {
  id: string;
  slug: string;
  name: string;
  avatarUrl: string | null;
  createdAt: string;
}

export interface Membership {
  org: OrgRow;
  role: OrgRole;
}

/**
 * Reads of the orgs read models, for routes and for other modules (org
 * wallets, org purchases, private packages). Every lookup by slug answers
 * 404 to a non-member: the org's existence is not revealed.
 */
@Injectable()
export class OrgsReader {
  constructor(private readonly db: DataSource) {}

  async membership(slug: string, userId: string): Promise<Membership> {
    const rows = await this.db.query(
      `SELECT o.id, o.slug, o.name, o.avatar_url, o.created_at, m.role
         FROM orgs o JOIN org_members m ON m.org_id = o.id
        WHERE o.slug = $1 AND m.user_id = $2`,
      [slug, userId],
    );
    if (rows.length === 0) throw new DomainError('not_found', ORG_NOT_FOUND);
    return { org: orgOf(rows[0]), role: rows[0].role };
  }

  /** The membership when the caller holds at least `least`; 403 for a member below it. */
  async membershipAtLeast(slug: string, userId: string, least: OrgRole, refusal: string): Promise<Membership> {
    const membership = await this.membership(slug, userId);
    if (!atLeast(membership.role, least)) throw new DomainError('forbidden', refusal);
    return membership;
  }

  async orgsOf(userId: string): Promise<(OrgRow & { role: OrgRole })[]> {
    const rows = await this.db.query(
      `SELECT o.id, o.slug, o.name, o.avatar_url, o.created_at, m.role
         FROM orgs o JOIN org_members m ON m.org_id = o.id
        WHERE m.user_id = $1 ORDER BY o.created_at, o.slug`,
      [userId],
    );
    return rows.map((row: Record<string, unknown>) => ({ ...orgOf(row), role: row.role as OrgRole }));
  }

  async members(orgId: string): Promise<{ userId: string; role: OrgRole; name: string | null; email: string | null }[]> {
    const rows = await this.db.query(
      `SELECT m.user_id, m.role, u.name, u.email
         FROM org_members m LEFT JOIN users u ON u.id = m.user_id
        WHERE m.org_id = $1
        ORDER BY CASE m.role WHEN 'owner' THEN 0 WHEN 'admin' THEN 1 ELSE 2 END, m.joined_at, m.user_id`,
      [orgId],
    );
    return rows.map((row: Record<string, string | null>) => ({
      userId: row.user_id as string,
      role: row.role as OrgRole,
      name: row.name,
      email: row.email,
    }));
  }

  /** The org holding an open invitation with this token hash, or null. */
  async orgOfInvitation(tokenHash: string): Promise<string | null> {
    const rows = await this.db.query('SELECT org_id FROM org_invitations WHERE token_hash = $1', [tokenHash]);
    return rows[0]?.org_id ?? null;
  }

  /** Whether the user belongs to the org, in any role (the catalog's visibility rule asks). */
  async isMember(orgId: string, userId: string): Promise<boolean> {
    const rows = await this.db.query('SELECT 1 FROM org_members WHERE org_id = $1 AND user_id = $2', [orgId, userId]);
    return rows.length > 0;
  }

  /** The ids of the orgs the user belongs to (for entitlement checks). */
  async orgIdsOf(userId: string): Promise<string[]> {
    const rows = await this.db.query('SELECT org_id FROM org_members WHERE user_id = $1', [userId]);
    return rows.map((row: { org_id: string }) => row.org_id);
  }

  /** The ids of the orgs the user is an admin or owner of: it decides their purchase approvals. */
  async adminOrgIdsOf(userId: string): Promise<string[]> {
    const rows = await this.db.query("SELECT org_id FROM org_members WHERE user_id = $1 AND role IN ('owner', 'admin')", [
      userId,
    ]);
    return rows.map((row: { org_id: string }) => row.org_id);
  }

  async hasMemberWithEmail(orgId: string, email: string): Promise<boolean> {
    const rows = await this.db.query(
      `SELECT 1 FROM org_members m JOIN users u ON u.id = m.user_id WHERE m.org_id = $1 AND lower(u.email) = lower($2)`,
      [orgId, email],
    );
    return rows.length > 0;
  }

  async emailOf(userId: string): Promise<string | null> {
    const rows = await this.db.query('SELECT email FROM users WHERE id = $1 AND deleted_at IS NULL', [userId]);
    return rows[0]?.email ?? null;
  }
}

function orgOf(row: Record<string, unknown>): OrgRow {
  return {
    id: row.id as string,
    slug: row.slug as string,
    name: row.name as string,
    avatarUrl: (row.avatar_url as string | null) ?? null,
    createdAt: new Date(row.created_at as string).toISOString(),
  };
}
