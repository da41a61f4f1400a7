import { Controller, HttpCode, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiForbiddenResponse, ApiOkResponse, ApiTags, ApiUnprocessableEntityResponse } from '@nestjs/swagger';
import { CurrentPrincipal, Principal, RequireScope } from '../../../platform/http/access';
import { OpenSellerDashboardCommand } from '../commands/open-seller-dashboard/open-seller-dashboard.command';
import { StartSellerOnboardingCommand } from '../commands/start-seller-onboarding/start-seller-onboarding.command';
import { SellerLink } from './billing.responses';

/** Vendors' payouts: the connected account at the processor, its onboarding and its dashboard. */
@ApiBearerAuth()
@RequireScope('sell')
@Controller('v1')
export class SellerPayoutsController {
  constructor(private readonly commands: CommandBus) {}

  /**
   * A link to the processor's onboarding of the vendor's connected account, which is created on the first call (once,
   * also under concurrent calls). Each call answers a fresh single-use link; onboarding is complete once the processor
   * reports charges enabled and details submitted (`account.updated`).
   */
  @Post('vendor/onboard')
  @ApiTags('vendor')
  @HttpCode(200)
  @ApiOkResponse({ type: SellerLink })
  @ApiForbiddenResponse({ description: 'No `sell` scope, or no vendor profile' })
  onboard(@CurrentPrincipal() principal: Principal): Promise<SellerLink> {
    return this.commands.execute(new StartSellerOnboardingCommand(principal.userId));
  }

  /** A single-use sign-in to the processor's dashboard (payouts, balance) of the vendor's onboarded account. */
  @Post('billing/seller-dashboard-link')
  @ApiTags('billing')
  @HttpCode(200)
  @ApiOkResponse({ type: SellerLink })
  @ApiForbiddenResponse({ description: 'No `sell` scope, or no vendor profile' })
  @ApiUnprocessableEntityResponse({ description: 'Payout onboarding not started or not complete yet' })
  dashboardLink(@CurrentPrincipal() principal: Principal): Promise<SellerLink> {
    return this.commands.execute(new OpenSellerDashboardCommand(principal.userId));
  }
}
