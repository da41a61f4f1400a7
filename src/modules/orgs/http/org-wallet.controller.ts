import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { AnyToken, CurrentPrincipal, Principal, RequireScope } from '../../../platform/http/access';
import { Idempotent } from '../../../platform/http/idempotency';
import { ConfigureAutoTopUpDto } from '../../wallet/commands/configure-auto-top-up/configure-auto-top-up.dto';
import { TopUpDto } from '../../wallet/commands/request-top-up/request-top-up.dto';
import { WalletEndpoints } from '../../wallet/http/wallet-endpoints';
import { AutoTopUp, TopUpAnswer, Wallet, WalletTransactions } from '../../wallet/http/wallet.responses';
import { WalletTransactionsQueryDto } from '../../wallet/queries/list-wallet-transactions/list-wallet-transactions.dto';
import { orgWallet } from '../domain/org-owner';
import { OrgsReader } from '../read-models/orgs.reader';

/** An Idempotency-Key of an org-paid request belongs to the caller within that org. */
export const orgIdempotencyScope = (request: FastifyRequest): string | undefined => {
  const slug = (request.params as { slug?: string } | undefined)?.slug;
  return slug === undefined ? undefined : `org:${slug}`;
};

const MANAGE_WALLET = 'Only an admin or owner may top up or configure the organization wallet';

/**
 * The org's shared wallet: the personal wallet's behaviour (the same code) on
 * the stream `wallet-org-<orgId>`. Members read it; admins and owners fund it.
 */
@ApiTags('orgs')
@ApiBearerAuth()
@Controller('v1/orgs/:slug/wallet')
export class OrgWalletController {
  constructor(
    private readonly endpoints: WalletEndpoints,
    private readonly orgs: OrgsReader,
  ) {}

  @Get()
  @AnyToken()
  @ApiOkResponse({ type: Wallet })
  async wallet(@CurrentPrincipal() principal: Principal, @Param('slug') slug: string): Promise<Wallet> {
    const { org } = await this.orgs.membership(slug, principal.userId);
    return this.endpoints.wallet(orgWallet(org.id));
  }

  /** Admins and owners; as POST /v1/wallet/top-up. */
  @Post('top-up')
  @RequireScope('purchase')
  @HttpCode(200)
  @Idempotent({ scope: orgIdempotencyScope })
  @ApiOkResponse({ type: TopUpAnswer })
  async topUp(
    @CurrentPrincipal() principal: Principal,
    @Param('slug') slug: string,
    @Body() body: TopUpDto,
  ): Promise<TopUpAnswer> {
    const { org } = await this.orgs.membershipAtLeast(slug, principal.userId, 'admin', MANAGE_WALLET);
    return this.endpoints.topUp(orgWallet(org.id), body);
  }

  /** Admins and owners; as PATCH /v1/wallet/auto-top-up (the charge needs a saved card of the org's billing customer). */
  @Patch('auto-top-up')
  @RequireScope('purchase')
  @ApiOkResponse({ type: AutoTopUp })
  async autoTopUp(
    @CurrentPrincipal() principal: Principal,
    @Param('slug') slug: string,
    @Body() body: ConfigureAutoTopUpDto,
  ): Promise<AutoTopUp> {
    const { org } = await this.orgs.membershipAtLeast(slug, principal.userId, 'admin', MANAGE_WALLET);
    return this.endpoints.autoTopUp(orgWallet(org.id), body);
  }

  @Get('transactions')
  @AnyToken()
  @ApiOkResponse({ type: WalletTransactions })
  async transactions(
    @CurrentPrincipal() principal: Principal,
    @Param('slug') slug: string,
    @Query() query: WalletTransactionsQueryDto,
  ): Promise<WalletTransactions> {
    const { org } = await this.orgs.membership(slug, principal.userId);
    return this.endpoints.transactions(orgWallet(org.id), query);
  }
}
