import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DomainError } from '../../../../platform/errors/domain-error';
import { SpendPolicy } from '../../http/policies.responses';
import { SpendPoliciesReader } from '../../read-models/spend-policies.reader';
import { GetPolicyQuery } from './get-policy.query';

@QueryHandler(GetPolicyQuery)
export class GetPolicyHandler implements IQueryHandler<GetPolicyQuery, SpendPolicy> {
  constructor(private readonly policies: SpendPoliciesReader) {}

  async execute({ owner, policyId }: GetPolicyQuery): Promise<SpendPolicy> {
    const policy = await this.policies.find(owner, policyId);
    if (!policy) throw new DomainError('not_found', 'Spend policy not found');
    return policy;
  }
}
