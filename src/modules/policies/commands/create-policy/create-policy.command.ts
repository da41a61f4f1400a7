import { Command } from '@nestjs/cqrs';
import { PolicyOwner } from '../../domain/policy-owner';
import { SpendPolicyChanges } from '../../domain/spend-policy';

/** A new spend policy for the owner; fields left out take the defaults (no limits, all vendors and types, active). */
export class CreatePolicyCommand extends Command<{ policyId: string }> {
  constructor(
    readonly owner: PolicyOwner,
    readonly fields: SpendPolicyChanges & { name: string },
  ) {
    super();
  }
}
