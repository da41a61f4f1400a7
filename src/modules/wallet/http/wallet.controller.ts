import { Body, Controller, Get, HttpCode, Patch, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { AnyToken, CurrentPrincipal, Principal, RequireScope } from '../../../platform/http/access';
import { Idempotent } from '../../../platform/http/idempotency';
import { ConfigureAutoTopUpDto } from '../commands/configure-auto-top-up/configure-auto-top-up.dto';
import { TopUpDto } from '../commands/request-top-up/request-top-up.dto';
import { userWallet } from '../domain/wallet-owner';
import { WalletTransactionsQueryDto } from '../queries/list-wallet-transactions/list-wallet-transactions.dto';
import { WalletEndpoints } from './wallet-endpoints';
import { AutoTopUp, TopUpAnswer, Wallet, WalletTransactions } from './wallet.responses';

@ApiTags('wallet')
@ApiBearerAuth()
@Controller('v1/wallet')
export class WalletController {
  constructor(private readonly endpoints: WalletEndpoints) {}

  /** The caller's wallet; one with no history reads balance 0 and auto top-up off. */
  @Get()
  @AnyToken()
  @ApiOkResponse({ type: Wallet })
  wallet(@CurrentPrincipal() principal: Principal): Promise<Wallet> {
    return this.endpoints.wallet(userWallet(principal.userId));
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
    return this.endpoints.topUp(userWallet(principal.userId), body);
  }

  /** When a debit leaves the balance below the threshold, the saved card is charged the amount, once. */
  @Patch('auto-top-up')
  @RequireScope('purchase')
  @ApiOkResponse({ type: AutoTopUp })
  autoTopUp(@CurrentPrincipal() principal: Principal, @Body() body: ConfigureAutoTopUpDto): Promise<AutoTopUp> {
    return this.endpoints.autoTopUp(userWallet(principal.userId), body);
  }

  /** Newest first, walked with `nextCursor`. */
  @Get('transactions')
  @AnyToken()
  @ApiOkResponse({ type: WalletTransactions })
  transactions(
    @CurrentPrincipal() principal: Principal,
    @Query() query: WalletTransactionsQueryDto,
  ): Promise<WalletTransactions> {
    return this.endpoints.transactions(userWallet(principal.userId), query);
  }
}
