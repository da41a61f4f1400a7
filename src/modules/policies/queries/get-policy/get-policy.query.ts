import { Query } from '@nestjs/cqrs';
import { SpendPolicy } from '../../http/policies.responses';
import { PolicyOwner } from '../../domain/policy-owner';

/** One of the owner's live policies; another owner's, a deleted or an unknown one is 404. */
export class GetPolicyQuery extends Query<SpendPolicy> {
  constructor(
    readonly owner: PolicyOwner,
    readonly policyId: string,
  ) {
    super();
  }
}
