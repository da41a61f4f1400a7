import { Body, Controller, Get, HttpCode, Patch, Post, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { AnyToken, CurrentPrincipal, Principal, RequireScope } from '../../../platform/http/access';
import { Idempotent } from '../../../platform/http/idempotency';
import { ConfigureAutoTopUpCommand } from '../commands/configure-auto-top-up/configure-auto-top-up.command';
import { ConfigureAutoTopUpDto } from '../commands/configure-auto-top-up/configure-auto-top-up.dto';
import { RequestTopUpCommand } from '../commands/request-top-up/request-top-up.command';
import { TopUpDto } from '../commands/request-top-up/request-top-up.dto';
import { userWallet } from '../domain/wallet-owner';
import { GetWalletQuery } from '../queries/get-wallet/get-wallet.query';
import { WalletTransactionsQueryDto } from '../queries/list-wallet-transactions/list-wallet-transactions.dto';
import { ListWalletTransactionsQuery } from '../queries/list-wallet-transactions/list-wallet-transactions.query';
import { AutoTopUp, TopUpAnswer, Wallet, WalletTransactions } from './wallet.responses';

@ApiTags('wallet')
@ApiBearerAuth()
@Controller('v1/wallet')
export class WalletController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  /** The caller's wallet; one with no history reads balance 0 and auto top-up off. */
  @Get()
  @AnyToken()
  @ApiOkResponse({ type: Wallet })
  wallet(@CurrentPrincipal() principal: Principal): Promise<Wallet> {
    return this.queries.execute(new GetWalletQuery(userWallet(principal.userId)));
  }

  /**
   * Opens a payment intent for the amount; confirm its client secret with the processor's client library. The
   * wallet is credited when the processor reports `payment_intent.succeeded`.
   */
  @Post('top-up')
  @RequireScope('purchase')
  @HttpCode(200)
  @Idempotent()
  @ApiOkResponse({ type: TopUpAnswer })
  topUp(@CurrentPrincipal() principal: Principal, @Body() body: TopUpDto): Promise<TopUpAnswer> {
    return this.commands.execute(new RequestTopUpCommand(userWallet(principal.userId), body.amountCents));
  }

  /** When a debit leaves the balance below the threshold, the saved card is charged the amount, once. */
  @Patch('auto-top-up')
  @RequireScope('purchase')
  @ApiOkResponse({ type: AutoTopUp })
  async autoTopUp(@CurrentPrincipal() principal: Principal, @Body() body: ConfigureAutoTopUpDto): Promise<AutoTopUp> {
    const settings = await this.commands.execute(
      new ConfigureAutoTopUpCommand(userWallet(principal.userId), {
        enabled: body.enabled,
        thresholdCents: body.thresholdCents,
        amountCents: body.amountCents,
      }),
    );
    return {
      autoTopUpEnabled: settings.enabled,
      autoTopUpThresholdCents: settings.thresholdCents,
      autoTopUpAmountCents: settings.amountCents,
    };
  }

  /** Newest first, walked with `nextCursor`. */
  @Get('transactions')
  @AnyToken()
  @ApiOkResponse({ type: WalletTransactions })
  transactions(
    @CurrentPrincipal() principal: Principal,
    @Query() query: WalletTransactionsQueryDto,
  ): Promise<WalletTransactions> {
    return this.queries.execute(new ListWalletTransactionsQuery(userWallet(principal.userId), query.limit ?? 50, query.cursor));
  }
}
