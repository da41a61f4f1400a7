import { Controller, Get } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { AnyToken, CurrentPrincipal, Principal } from '../../../platform/http/access';
import { GetBuyerOverviewQuery } from '../queries/get-buyer-overview/get-buyer-overview.query';
import { BillingOverview } from './overviews.responses';

/**
 * The money views built from orders. They sit under `/v1/billing` in the API, but orders are the purchasing
 * module's, so the purchasing module answers them from its own read model.
 */
@ApiTags('billing')
@ApiBearerAuth()
@Controller('v1/billing')
export class BillingOverviewsController {
  constructor(private readonly queries: QueryBus) {}

  /**
   * What the caller spent as a buyer: totals of paid orders (all time, this UTC month, this week from Monday 00:00
   * UTC) and the 10 newest orders of any status.
   */
  @Get('overview')
  @AnyToken()
  @ApiOkResponse({ type: BillingOverview })
  overview(@CurrentPrincipal() principal: Principal): Promise<BillingOverview> {
    return this.queries.execute(new GetBuyerOverviewQuery(principal.userId));
  }
}
