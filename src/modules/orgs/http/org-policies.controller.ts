import { Body, Controller, Get, Param, Post } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiCreatedResponse, ApiForbiddenResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { AnyToken, CurrentPrincipal, OwnerOnly, Principal } from '../../../platform/http/access';
import { ProjectionWaiter } from '../../../projections/read-your-writes';
import { CreatePolicyCommand } from '../../policies/commands/create-policy/create-policy.command';
import { CreatePolicyDto } from '../../policies/commands/create-policy/create-policy.dto';
import { PolicyOwner } from '../../policies/domain/policy-owner';
import { SpendPolicy, SpendPolicyList } from '../../policies/http/policies.responses';
import { GetPolicyQuery } from '../../policies/queries/get-policy/get-policy.query';
import { ListPoliciesQuery } from '../../policies/queries/list-policies/list-policies.query';
import { OrgsReader } from '../read-models/orgs.reader';

const orgPolicyOwner = (orgId: string): PolicyOwner => ({ kind: 'org', id: orgId });

/**
 * The org's spend policies: the same fields as personal ones. Every active
 * one applies to purchases made for the org (`orgSlug`), instead of the
 * token's personal policy (see the purchase handler).
 */
@ApiTags('orgs')
@ApiBearerAuth()
@AnyToken()
@Controller('v1/orgs/:slug/policies')
export class OrgPoliciesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly orgs: OrgsReader,
    private readonly waiter: ProjectionWaiter,
  ) {}

  @Get()
  @ApiOkResponse({ type: SpendPolicyList, description: "The org's spend policies, newest first" })
  async list(@CurrentPrincipal() principal: Principal, @Param('slug') slug: string): Promise<SpendPolicyList> {
    const { org } = await this.orgs.membership(slug, principal.userId);
    return { policies: await this.queries.execute(new ListPoliciesQuery(orgPolicyOwner(org.id))) };
  }

  /** Admins and owners, with a token that is not bound to a spend policy. */
  @Post()
  @OwnerOnly('changePolicies')
  @ApiForbiddenResponse({ description: 'Not an admin or owner, or the token is bound to a spend policy' })
  @ApiCreatedResponse({ type: SpendPolicy })
  async create(
    @CurrentPrincipal() principal: Principal,
    @Param('slug') slug: string,
    @Body() body: CreatePolicyDto,
  ): Promise<SpendPolicy> {
    const { org } = await this.orgs.membershipAtLeast(
      slug,
      principal.userId,
      'admin',
      'Only an admin or owner may create org policies',
    );
    const owner = orgPolicyOwner(org.id);
    const { policyId } = await this.commands.execute(new CreatePolicyCommand(owner, body));
    await this.waiter.catchUpWithThisRequest();
    return this.queries.execute(new GetPolicyQuery(owner, policyId));
  }
}
