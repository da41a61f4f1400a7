import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { RecordedEvent } from '../../../event-store/event-store';
import { AsProjection, Projection } from '../../../projections/runner/processor';
import { SpendPolicyRules } from '../domain/spend-policy';
import { SpendPolicyEvent } from '../domain/spend-policy.decider';
import { PolicyEvents } from '../events';

/**
 * `spend_policies`: each live policy as its owner lists it. A deleted policy's
 * row goes, so it leaves the list and reads 404. Spend is not kept here:
 * decisions fold the policy's stream.
 */
@Injectable()
@AsProjection()
export class SpendPoliciesProjection implements Projection {
  readonly name = 'spend-policies';
  readonly eventTypes = [PolicyEvents.SpendPolicyCreated, PolicyEvents.SpendPolicyUpdated, PolicyEvents.SpendPolicyDeleted];

  async apply(event: RecordedEvent, tx: EntityManager): Promise<void> {
    const e = event as unknown as SpendPolicyEvent;
    switch (e.type) {
      case PolicyEvents.SpendPolicyCreated:
        await tx.query(
          `INSERT INTO spend_policies (id, owner_kind, owner_id, name, max_per_purchase_cents, daily_limit_cents,
             monthly_limit_cents, require_approval_above_cents, vendor_allowlist, blocked_types, active, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $12)`,
          [e.data.policyId, e.data.owner.kind, e.data.owner.id, ...ruleColumns(e.data), e.data.createdAt],
        );
        return;
      case PolicyEvents.SpendPolicyUpdated:
        await tx.query(
          `UPDATE spend_policies SET name = $2, max_per_purchase_cents = $3, daily_limit_cents = $4, monthly_limit_cents = $5,
             require_approval_above_cents = $6, vendor_allowlist = $7, blocked_types = $8, active = $9, updated_at = $10
           WHERE id = $1`,
          [e.data.policyId, ...ruleColumns(e.data), e.data.updatedAt],
        );
        return;
      case PolicyEvents.SpendPolicyDeleted:
        await tx.query('DELETE FROM spend_policies WHERE id = $1', [e.data.policyId]);
        return;
    }
  }

  async reset(tx: EntityManager): Promise<void> {
    await tx.query('DELETE FROM spend_policies');
  }
}

/** The rules in the column order both statements use. */
function ruleColumns(rules: SpendPolicyRules): unknown[] {
  return [
    rules.name,
    rules.maxPerPurchaseCents,
    rules.dailyLimitCents,
    rules.monthlyLimitCents,
    rules.requireApprovalAboveCents,
    rules.vendorAllowlist,
    rules.blockedTypes,
    rules.active,
  ];
}
