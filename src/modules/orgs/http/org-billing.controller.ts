import { Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { OpenSetupIntentCommand } from '../../billing/commands/open-setup-intent/open-setup-intent.command';
import { ClientSecret, PaymentMethods } from '../../billing/http/billing.responses';
import { GetPaymentMethodsQuery } from '../../billing/queries/get-payment-methods/get-payment-methods.query';
import { AnyToken, CurrentPrincipal, Principal, RequireScope } from '../../../platform/http/access';
import { Idempotent } from '../../../platform/http/idempotency';
import { orgWallet } from '../domain/org-owner';
import { OrgsReader } from '../read-models/orgs.reader';
import { orgIdempotencyScope } from './org-wallet.controller';

const MANAGE_CARDS = 'Only an admin or owner may save a card for the organization';

/**
 * The org's own processor customer and saved cards, as /v1/billing is the
 * caller's: the org wallet's auto top-ups charge the newest of them.
 */
@ApiTags('orgs')
@ApiBearerAuth()
@Controller('v1/orgs/:slug/billing')
export class OrgBillingController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly orgs: OrgsReader,
  ) {}

  /** Admins and owners: the org's saved cards (display fields only), newest first. */
  @Get('payment-methods')
  @AnyToken()
  @ApiOkResponse({ type: PaymentMethods })
  async paymentMethods(@CurrentPrincipal() principal: Principal, @Param('slug') slug: string): Promise<PaymentMethods> {
    const { org } = await this.orgs.membershipAtLeast(slug, principal.userId, 'admin', MANAGE_CARDS);
    return this.queries.execute(new GetPaymentMethodsQuery(orgWallet(org.id)));
  }

  /** Admins and owners; as POST /v1/billing/setup-intent, for the org's processor customer. */
  @Post('setup-intent')
  @RequireScope('purchase')
  @HttpCode(200)
  @Idempotent({ scope: orgIdempotencyScope })
  @ApiOkResponse({ type: ClientSecret })
  async setupIntent(@CurrentPrincipal() principal: Principal, @Param('slug') slug: string): Promise<ClientSecret> {
    const { org } = await this.orgs.membershipAtLeast(slug, principal.userId, 'admin', MANAGE_CARDS);
    return this.commands.execute(new OpenSetupIntentCommand(orgWallet(org.id)));
  }
}
