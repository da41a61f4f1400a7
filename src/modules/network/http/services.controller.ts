import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import {
  ApiBadGatewayResponse,
  ApiBearerAuth,
  ApiGatewayTimeoutResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiPaymentRequiredResponse,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import { CurrentPrincipal, Principal, Public, RequireScope } from '../../../platform/http/access';
import { Idempotent } from '../../../platform/http/idempotency';
import { CallAnswer, CallServiceCommand } from '../commands/call-service/call-service.command';
import { CallServiceDto } from '../commands/call-service/call-service.dto';
import { ListServicesQuery } from '../queries/network.queries';
import { ServicesQueryDto } from '../queries/network-query.dto';
import { CallFailed, CallRefused, CallResult, Services } from './network.responses';

@ApiTags('network')
@Controller('v1/services')
export class ServicesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  /** Live services: listings with a service endpoint, with their call and probe statistics. */
  @Get()
  @Public()
  @ApiOkResponse({ type: Services })
  list(@Query() query: ServicesQueryDto): Promise<Services> {
    return this.queries.execute(
      new ListServicesQuery({
        tool: query.tool,
        protocol: query.protocol,
        settlement: query.settlement,
        maxPerCallCents: query.maxPerCallCents,
        status: query.status,
        verified: query.verified,
        sort: query.sort ?? 'recent',
        page: query.page ?? 1,
        perPage: query.per_page ?? 20,
      }),
    ) as Promise<Services>;
  }

  /**
   * Calls a tool of the listing's live service, metered against the caller's wallet: the per-call cost is
   * reserved first (402 `insufficient_balance`), kept as a `metered_usage` transaction when the call succeeds,
   * and given back as a `refund` when it fails (502) or times out (504). Every call carries a key the
   * service can dedupe by (header `Idempotency-Key`; MCP: `params._meta.idempotencyKey`): derived from the caller and
   * their Idempotency-Key, the same for every retry with it; without one, the usage record id.
   */
  @Post(':vendor/:slug/call')
  @ApiBearerAuth()
  @RequireScope('purchase')
  @HttpCode(200)
  @Idempotent()
  @ApiOkResponse({ type: CallResult })
  @ApiPaymentRequiredResponse({ type: CallRefused, description: 'insufficient_balance, or the cost is above maxCostCents' })
  @ApiNotFoundResponse({ description: 'No live service at this address, or no open session of yours with sessionId' })
  @ApiUnprocessableEntityResponse({ description: 'A protocol or settlement method not supported yet' })
  @ApiBadGatewayResponse({ type: CallFailed, description: 'The service failed; its message; nothing was charged' })
  @ApiGatewayTimeoutResponse({ type: CallFailed, description: 'The service did not answer in time; nothing was charged' })
  call(
    @CurrentPrincipal() principal: Principal,
    @Param('vendor') vendor: string,
    @Param('slug') slug: string,
    @Body() body: CallServiceDto,
  ): Promise<CallAnswer> {
    return this.commands.execute(
      new CallServiceCommand(principal.userId, vendor, slug, {
        tool: body.tool,
        input: body.input ?? {},
        maxCostCents: body.maxCostCents,
        sessionId: body.sessionId,
      }),
    );
  }
}
