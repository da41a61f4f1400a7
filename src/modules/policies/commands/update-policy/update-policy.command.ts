import { Command } from '@nestjs/cqrs';
import { PolicyOwner } from '../../domain/policy-owner';
import { SpendPolicyChanges } from '../../domain/spend-policy';

/** Changes the owner's policy: an omitted field is kept, null clears a money rule. */
export class UpdatePolicyCommand extends Command<void> {
  constructor(
    readonly owner: PolicyOwner,
    readonly policyId: string,
    readonly changes: SpendPolicyChanges,
  ) {
    super();
  }
}
