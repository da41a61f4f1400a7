import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { SpendPolicy } from '../../http/policies.responses';
import { SpendPoliciesReader } from '../../read-models/spend-policies.reader';
import { ListPoliciesQuery } from './list-policies.query';

@QueryHandler(ListPoliciesQuery)
export class ListPoliciesHandler implements IQueryHandler<ListPoliciesQuery, SpendPolicy[]> {
  constructor(private readonly policies: SpendPoliciesReader) {}

  execute({ owner }: ListPoliciesQuery): Promise<SpendPolicy[]> {
    return this.policies.list(owner);
  }
}
