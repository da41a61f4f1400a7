import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import {
  ApiBearerAuth,
  ApiConflictResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiPaymentRequiredResponse,
  ApiTags,
} from '@nestjs/swagger';
import { CurrentPrincipal, Principal, RequireScope } from '../../../platform/http/access';
import { Idempotent } from '../../../platform/http/idempotency';
import { DomainError } from '../../../platform/errors/domain-error';
import { PurchaseCommand } from '../commands/purchase/purchase.command';
import { PurchaseDto } from '../commands/purchase/purchase.dto';
import { GetEntitlementQuery } from '../queries/get-entitlement/get-entitlement.query';
import { ListEntitlementsQuery } from '../queries/list-entitlements/list-entitlements.query';
import { OrdersQueryDto } from '../queries/list-orders/list-orders.dto';
import { ListOrdersQuery } from '../queries/list-orders/list-orders.query';
import { Entitlements, Orders, Owned, PaymentRequired, PurchaseResult } from './purchasing.responses';

@ApiTags('purchases')
@ApiBearerAuth()
@Controller('v1')
export class PurchasesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  /**
   * Buys a listing: free listings at once, `useWallet` from the wallet, otherwise the saved card. Answers
   * `purchased` or `already_owned` (200), or 402 `insufficient_balance` / `approval_required`.
   */
  @Post('purchases')
  @RequireScope('purchase')
  @HttpCode(200)
  // A key of a purchase for an org belongs to the caller within that org.
  @Idempotent({ scope: (request) => orgScopeOf(request.body) })
  @ApiOkResponse({ type: PurchaseResult })
  @ApiPaymentRequiredResponse({ type: PaymentRequired })
  @ApiConflictResponse({ description: 'The price is above maxPriceCents (or an Idempotency-Key is in use)' })
  @ApiNotFoundResponse({ description: 'Unknown or draft listing, or a release that is not a published one of it' })
  purchase(@CurrentPrincipal() principal: Principal, @Body() body: PurchaseDto): Promise<PurchaseResult> {
    return this.commands.execute(
      new PurchaseCommand(
        principal.userId,
        {
          listingId: body.listingId,
          releaseId: body.releaseId,
          maxPriceCents: body.maxPriceCents,
          useWallet: body.useWallet,
          orgSlug: body.orgSlug,
          channel: body.channel,
        },
        { tokenId: principal.tokenId, policyId: principal.policyId, tokenName: principal.tokenName },
      ),
    );
  }

  @Get('entitlements')
  @RequireScope('read')
  @ApiOkResponse({ type: Entitlements })
  async entitlements(@CurrentPrincipal() principal: Principal): Promise<Entitlements> {
    return { entitlements: await this.queries.execute(new ListEntitlementsQuery(principal.userId)) };
  }

  /** 200 `{owned:true, entitlement}`, or 404 `{owned:false}`. */
  @Get('entitlements/:listingId')
  @RequireScope('read')
  @ApiOkResponse({ type: Owned })
  @ApiNotFoundResponse({ description: '`{owned:false, message}`' })
  async entitlement(@CurrentPrincipal() principal: Principal, @Param('listingId') listingId: string): Promise<Owned> {
    const entitlement = await this.queries.execute(new GetEntitlementQuery(principal.userId, listingId));
    if (!entitlement) throw new DomainError('not_found', 'You are not entitled to this listing', { owned: false });
    return { owned: true, entitlement };
  }

  /** Newest first; `paymentIntentId` finds the order a processor payment intent paid for. */
  @Get('orders')
  @RequireScope('read')
  @ApiOkResponse({ type: Orders })
  async orders(@CurrentPrincipal() principal: Principal, @Query() query: OrdersQueryDto): Promise<Orders> {
    return { orders: await this.queries.execute(new ListOrdersQuery(principal.userId, query.paymentIntentId)) };
  }
}

function orgScopeOf(body: unknown): string | undefined {
  const orgSlug = (body as { orgSlug?: unknown } | null)?.orgSlug;
  return typeof orgSlug === 'string' ? `org:${orgSlug}` : undefined;
}
