import { Command } from '@nestjs/cqrs';
import { PolicyOwner } from '../../domain/policy-owner';

/**
 * Deletes the owner's policy. Tokens bound to it stay bound and fail closed:
 * every purchase they make then needs approval.
 */
export class DeletePolicyCommand extends Command<void> {
  constructor(
    readonly owner: PolicyOwner,
    readonly policyId: string,
  ) {
    super();
  }
}
