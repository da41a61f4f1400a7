import { Controller, Get } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiForbiddenResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, Principal, RequireScope } from '../../../platform/http/access';
import { GetVendorAnalyticsQuery } from '../queries/get-vendor-analytics/get-vendor-analytics.query';
import { VendorAnalytics } from './overviews.responses';

@ApiTags('vendor')
@ApiBearerAuth()
@RequireScope('sell')
@Controller('v1/vendor/analytics')
export class VendorAnalyticsController {
  constructor(private readonly queries: QueryBus) {}

  /**
   * Sales of each of the vendor's listings (paid orders and gross revenue, what buyers paid) beside its price and
   * installs, the totals, and whether payout onboarding is complete.
   */
  @Get()
  @ApiOkResponse({ type: VendorAnalytics })
  @ApiForbiddenResponse({ description: 'No `sell` scope, or no vendor profile' })
  analytics(@CurrentPrincipal() principal: Principal): Promise<VendorAnalytics> {
    return this.queries.execute(new GetVendorAnalyticsQuery(principal.userId));
  }
}
