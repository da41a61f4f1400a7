import { Controller, Get } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { AnyToken, CurrentPrincipal, Principal, RequireScope } from '../../../platform/http/access';
import { GetBuyerOverviewQuery } from '../queries/get-buyer-overview/get-buyer-overview.query';
import { GetSellerOverviewQuery } from '../queries/get-seller-overview/get-seller-overview.query';
import { BillingOverview, SellerOverview } from './overviews.responses';

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

  /**
   * What the caller earned as a vendor from paid orders of their listings: gross (what buyers paid) and net (after
   * the platform fee), all time and this UTC month. Only `{isVendor:false}` when the caller has no vendor profile.
   */
  @Get('seller-overview')
  @RequireScope('sell')
  @ApiOkResponse({ type: SellerOverview })
  sellerOverview(@CurrentPrincipal() principal: Principal): Promise<SellerOverview> {
    return this.queries.execute(new GetSellerOverviewQuery(principal.userId));
  }
}
