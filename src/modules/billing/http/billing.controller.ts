import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { AnyToken, CurrentPrincipal, Principal } from '../../../platform/http/access';
import { Idempotent } from '../../../platform/http/idempotency';
import { userWallet } from '../../wallet/domain/wallet-owner';
import { CardSetupSessionDto } from '../commands/open-card-setup-session/card-setup-session.dto';
import { OpenCardSetupSessionCommand } from '../commands/open-card-setup-session/open-card-setup-session.command';
import { OpenPortalSessionCommand } from '../commands/open-portal-session/open-portal-session.command';
import { OpenSetupIntentCommand } from '../commands/open-setup-intent/open-setup-intent.command';
import { GetPaymentMethodsQuery } from '../queries/get-payment-methods/get-payment-methods.query';
import { CardSetupSession, ClientSecret, PaymentMethods, PortalSession } from './billing.responses';

@ApiTags('billing')
@ApiBearerAuth()
@AnyToken()
@Controller('v1/billing')
export class BillingController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  /** The caller's saved cards (display fields only), newest first; the newest is the one auto top-ups charge. */
  @Get('payment-methods')
  @ApiOkResponse({ type: PaymentMethods })
  paymentMethods(@CurrentPrincipal() principal: Principal): Promise<PaymentMethods> {
    return this.queries.execute(new GetPaymentMethodsQuery(userWallet(principal.userId)));
  }

  /**
   * Starts saving a card: confirm the answer's client secret with the processor's client library. The card is listed
   * once the processor reports `setup_intent.succeeded`. Creates the caller's processor customer on first use.
   */
  @Post('setup-intent')
  @HttpCode(200)
  @Idempotent()
  @ApiOkResponse({ type: ClientSecret })
  setupIntent(@CurrentPrincipal() principal: Principal): Promise<ClientSecret> {
    return this.commands.execute(new OpenSetupIntentCommand(userWallet(principal.userId)));
  }

  /**
   * The processor's hosted card form, to save a card and come back to the web checkout of `listingId` (with
   * `card=added` or `card=canceled`). The card is listed once the processor reports `setup_intent.succeeded`. In the
   * sandbox, which has no hosted form, the url leads straight back with `sandbox=1`.
   */
  @Post('card-setup-session')
  @HttpCode(200)
  @Idempotent()
  @ApiOkResponse({ type: CardSetupSession })
  cardSetupSession(@CurrentPrincipal() principal: Principal, @Body() body: CardSetupSessionDto): Promise<CardSetupSession> {
    return this.commands.execute(
      new OpenCardSetupSessionCommand(userWallet(principal.userId), {
        listingId: body.listingId,
        releaseId: body.releaseId,
        approvalId: body.approvalId,
      }),
    );
  }

  /** A processor-hosted page to manage saved cards. */
  @Post('portal-session')
  @HttpCode(200)
  @ApiOkResponse({ type: PortalSession })
  portalSession(@CurrentPrincipal() principal: Principal): Promise<PortalSession> {
    return this.commands.execute(new OpenPortalSessionCommand(userWallet(principal.userId)));
  }
}
