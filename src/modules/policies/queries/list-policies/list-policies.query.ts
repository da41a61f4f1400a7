import { Query } from '@nestjs/cqrs';
import { SpendPolicy } from '../../http/policies.responses';
import { PolicyOwner } from '../../domain/policy-owner';

/** The owner's live spend policies, newest first. */
export class ListPoliciesQuery extends Query<SpendPolicy[]> {
  constructor(readonly owner: PolicyOwner) {
    super();
  }
}
