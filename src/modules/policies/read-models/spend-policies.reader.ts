import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { PolicyOwner } from '../domain/policy-owner';
import { SpendPolicy } from '../http/policies.responses';

const COLUMNS = `id, name, max_per_purchase_cents, daily_limit_cents, monthly_limit_cents, require_approval_above_cents,
  vendor_allowlist, blocked_types, active, created_at`;

/** Reads `spend_policies`, the read model SpendPoliciesProjection builds. */
@Injectable()
export class SpendPoliciesReader {
  constructor(private readonly dataSource: DataSource) {}

  async list(owner: PolicyOwner): Promise<SpendPolicy[]> {
    const rows = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM spend_policies WHERE owner_kind = $1 AND owner_id = $2 ORDER BY created_at DESC, seq DESC`,
      [owner.kind, owner.id],
    );
    return rows.map(toSpendPolicy);
  }

  async find(owner: PolicyOwner, policyId: string): Promise<SpendPolicy | null> {
    const [row] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM spend_policies WHERE id = $1 AND owner_kind = $2 AND owner_id = $3`,
      [policyId, owner.kind, owner.id],
    );
    return row ? toSpendPolicy(row) : null;
  }
}

/** bigint columns come back as text. */
const centsOf = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));

function toSpendPolicy(row: Record<string, unknown>): SpendPolicy {
  return {
    id: row.id as string,
    name: row.name as string,
    maxPerPurchaseCents: centsOf(row.max_per_purchase_cents),
    dailyLimitCents: centsOf(row.daily_limit_cents),
    monthlyLimitCents: centsOf(row.monthly_limit_cents),
    requireApprovalAboveCents: centsOf(row.require_approval_above_cents),
    vendorAllowlist: row.vendor_allowlist as string[],
    blockedTypes: row.blocked_types as string[],
    active: row.active as boolean,
    createdAt: new Date(row.created_at as string).toISOString(),
  };
}
