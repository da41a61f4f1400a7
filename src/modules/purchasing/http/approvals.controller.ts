import { Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import {
  ApiBearerAuth,
  ApiForbiddenResponse,
  ApiOkResponse,
  ApiPaymentRequiredResponse,
  ApiProperty,
  ApiTags,
} from '@nestjs/swagger';
import { CurrentPrincipal, OwnerOnly, Principal, RequireScope } from '../../../platform/http/access';
import { Idempotent } from '../../../platform/http/idempotency';
import { OK, Ok } from '../../../platform/http/responses';
import { ApprovePurchaseCommand, DeclinePurchaseCommand } from '../commands/approve-purchase/approve-purchase.command';
import { GetApprovalQuery, ListApprovalsQuery } from '../queries/list-approvals/list-approvals.query';
import { PaymentRequired, PurchaseResult } from './purchasing.responses';

export class Approval {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ enum: ['pending', 'approved', 'declined', 'expired'] }) status: string;
  @ApiProperty({ format: 'uuid' }) requesterId: string;
  @ApiProperty({ type: String, nullable: true, description: 'The name of the token that asked' }) tokenName: string | null;
  @ApiProperty({ format: 'uuid' }) policyId: string;
  @ApiProperty({ description: 'The policy rule that asked for approval' }) rule: string;
  @ApiProperty() reason: string;
  @ApiProperty({ format: 'uuid' }) listingId: string;
  @ApiProperty({ format: 'uuid' }) releaseId: string;
  @ApiProperty() listingTitle: string;
  @ApiProperty() vendorSlug: string;
  @ApiProperty() version: string;
  @ApiProperty() priceCents: number;
  @ApiProperty() useWallet: boolean;
  @ApiProperty({ type: String, nullable: true, format: 'uuid' }) orderId: string | null;
  @ApiProperty({ format: 'date-time' }) requestedAt: string;
  @ApiProperty({ format: 'date-time' }) expiresAt: string;
}

export class Approvals {
  @ApiProperty({ type: [Approval] }) approvals: Approval[];
}

/**
 * Purchases a spend policy sent to its owner. The web approval page calls these; a token bound to a spend
 * policy may not approve or decline (403), so an agent never approves its own spending.
 */
@ApiTags('purchases')
@ApiBearerAuth()
@RequireScope('purchase')
@Controller('v1/approvals')
export class ApprovalsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  /** The caller's pending approvals (undecided and younger than 24 hours), newest first. */
  @Get()
  @ApiOkResponse({ type: Approvals })
  async list(@CurrentPrincipal() principal: Principal): Promise<Approvals> {
    return { approvals: await this.queries.execute(new ListApprovalsQuery(principal.userId)) };
  }

  @Get(':id')
  @ApiOkResponse({ type: Approval })
  get(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<Approval> {
    return this.queries.execute(new GetApprovalQuery(principal.userId, id));
  }

  /** Executes the purchase once, on the terms asked for, and answers what the purchase answers; a price that rose is 409. */
  @Post(':id/approve')
  @OwnerOnly('decideApprovals')
  @HttpCode(200)
  @Idempotent()
  @ApiOkResponse({ type: PurchaseResult })
  @ApiPaymentRequiredResponse({ type: PaymentRequired })
  @ApiForbiddenResponse({ description: 'The token is bound to a spend policy' })
  approve(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<PurchaseResult> {
    return this.commands.execute(new ApprovePurchaseCommand(id, principal.userId));
  }

  @Post(':id/decline')
  @OwnerOnly('decideApprovals')
  @HttpCode(200)
  @ApiOkResponse({ type: Ok })
  @ApiForbiddenResponse({ description: 'The token is bound to a spend policy' })
  async decline(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<Ok> {
    await this.commands.execute(new DeclinePurchaseCommand(id, principal.userId));
    return OK;
  }
}
