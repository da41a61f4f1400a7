import { Body, Controller, Delete, Get, Param, Patch, Post } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiCreatedResponse, ApiForbiddenResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { DomainError } from '../../../platform/errors/domain-error';
import { AnyToken, CurrentPrincipal, OwnerOnly, Principal } from '../../../platform/http/access';
import { OK, Ok } from '../../../platform/http/responses';
import { isUuid } from '../../../platform/ids';
import { ProjectionWaiter } from '../../../projections/read-your-writes';
import { CreatePolicyCommand } from '../commands/create-policy/create-policy.command';
import { CreatePolicyDto } from '../commands/create-policy/create-policy.dto';
import { DeletePolicyCommand } from '../commands/delete-policy/delete-policy.command';
import { UpdatePolicyCommand } from '../commands/update-policy/update-policy.command';
import { UpdatePolicyDto } from '../commands/update-policy/update-policy.dto';
import { userPolicyOwner } from '../domain/policy-owner';
import { SpendPolicyChanges } from '../domain/spend-policy';
import { GetPolicyQuery } from '../queries/get-policy/get-policy.query';
import { ListPoliciesQuery } from '../queries/list-policies/list-policies.query';
import { SpendPolicy, SpendPolicyList } from './policies.responses';

@ApiTags('policies')
@ApiBearerAuth()
@AnyToken()
@Controller('v1/policies')
export class PoliciesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly waiter: ProjectionWaiter,
  ) {}

  @Get()
  @ApiOkResponse({ type: SpendPolicyList, description: "The caller's spend policies, newest first" })
  async list(@CurrentPrincipal() principal: Principal): Promise<SpendPolicyList> {
    return { policies: await this.queries.execute(new ListPoliciesQuery(userPolicyOwner(principal.userId))) };
  }

  /** Creates a spend policy; bind tokens to it with `policyId` on POST /v1/auth/tokens. */
  @Post()
  @OwnerOnly('changePolicies')
  @ApiForbiddenResponse({ description: 'The token is bound to a spend policy' })
  @ApiCreatedResponse({ type: SpendPolicy })
  async create(@CurrentPrincipal() principal: Principal, @Body() body: CreatePolicyDto): Promise<SpendPolicy> {
    const owner = userPolicyOwner(principal.userId);
    const { policyId } = await this.commands.execute(new CreatePolicyCommand(owner, body));
    // The answer is read from the projection, so it must have applied the change first.
    await this.waiter.catchUpWithThisRequest();
    return this.queries.execute(new GetPolicyQuery(owner, policyId));
  }

  /** Changes any subset of the fields; null clears a money rule. Returns the whole policy. */
  @Patch(':id')
  @OwnerOnly('changePolicies')
  @ApiForbiddenResponse({ description: 'The token is bound to a spend policy' })
  @ApiOkResponse({ type: SpendPolicy })
  async update(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Body() body: UpdatePolicyDto,
  ): Promise<SpendPolicy> {
    const owner = userPolicyOwner(principal.userId);
    if (!isUuid(id)) throw new DomainError('not_found', 'Spend policy not found');
    const changes = Object.fromEntries(Object.entries(body ?? {}).filter(([, value]) => value !== undefined));
    await this.commands.execute(new UpdatePolicyCommand(owner, id, changes as SpendPolicyChanges));
    await this.waiter.catchUpWithThisRequest();
    return this.queries.execute(new GetPolicyQuery(owner, id));
  }

  /** Tokens bound to a deleted policy stay bound, and every purchase they make needs approval. */
  @Delete(':id')
  @OwnerOnly('changePolicies')
  @ApiForbiddenResponse({ description: 'The token is bound to a spend policy' })
  @ApiOkResponse({ type: Ok })
  async remove(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<Ok> {
    if (!isUuid(id)) throw new DomainError('not_found', 'Spend policy not found');
    await this.commands.execute(new DeletePolicyCommand(userPolicyOwner(principal.userId), id));
    return OK;
  }
}
