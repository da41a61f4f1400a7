import { Module } from '@nestjs/common';
import { CreatePolicyHandler } from './commands/create-policy/create-policy.handler';
import { DeletePolicyHandler } from './commands/delete-policy/delete-policy.handler';
import { PolicyLedger } from './commands/policy-ledger';
import { RecordPolicySpendHandler } from './commands/record-policy-spend/record-policy-spend.handler';
import { UpdatePolicyHandler } from './commands/update-policy/update-policy.handler';
import { PoliciesController } from './http/policies.controller';
import { GetPolicyHandler } from './queries/get-policy/get-policy.handler';
import { ListPoliciesHandler } from './queries/list-policies/list-policies.handler';
import { SpendPoliciesProjection } from './read-models/spend-policies.projection';
import { SpendPoliciesReader } from './read-models/spend-policies.reader';
import './events'; // declares the module's event types before anything appends them

const controllers = [PoliciesController];
const commandHandlers = [CreatePolicyHandler, UpdatePolicyHandler, DeletePolicyHandler, RecordPolicySpendHandler];
const queryHandlers = [ListPoliciesHandler, GetPolicyHandler];
const projections = [SpendPoliciesProjection];
const readers = [SpendPoliciesReader];
/** Exported: purchases fold policies and record their spend in their own atomic append. */
const services = [PolicyLedger];

/** Spend policies: the rules tokens bound to them buy under, and the spend recorded against them. */
@Module({
  controllers,
  providers: [...commandHandlers, ...queryHandlers, ...projections, ...readers, ...services],
  exports: services,
})
export class PoliciesModule {}
