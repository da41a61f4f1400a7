import { Module } from '@nestjs/common';
import { PoliciesModule } from '../policies/policies.module';
import { WalletModule } from '../wallet/wallet.module';
import { ApprovePurchaseHandler, DeclinePurchaseHandler } from './commands/approve-purchase/approve-purchase.handler';
import { ApprovalsController } from './http/approvals.controller';
import { GetApprovalHandler, ListApprovalsHandler } from './queries/list-approvals/list-approvals.handler';
import { ApprovalsProjection } from './read-models/approvals.projection';
import { ChargeCardPurchaseHandler } from './commands/charge-card-purchase/charge-card-purchase.handler';
import { CompleteCardPurchaseHandler } from './commands/complete-card-purchase/complete-card-purchase.handler';
import { FailCardPurchaseHandler } from './commands/fail-card-purchase/fail-card-purchase.handler';
import { PurchaseHandler } from './commands/purchase/purchase.handler';
import { PurchasesController } from './http/purchases.controller';
import { GetEntitlementHandler } from './queries/get-entitlement/get-entitlement.handler';
import { ListEntitlementsHandler } from './queries/list-entitlements/list-entitlements.handler';
import { ListOrdersHandler } from './queries/list-orders/list-orders.handler';
import { PurchasesProjection } from './read-models/purchases.projection';
import './events'; // declares the module's event types before anything appends them

const controllers = [PurchasesController, ApprovalsController];
const commandHandlers = [
  ApprovePurchaseHandler,
  DeclinePurchaseHandler,
  PurchaseHandler,
  ChargeCardPurchaseHandler,
  CompleteCardPurchaseHandler,
  FailCardPurchaseHandler,
];
const queryHandlers = [
  ListEntitlementsHandler,
  GetEntitlementHandler,
  ListOrdersHandler,
  ListApprovalsHandler,
  GetApprovalHandler,
];
const projections = [PurchasesProjection, ApprovalsProjection];

/** Purchasing: purchases (free, wallet, card) under spend policies and their approvals, orders with the fee split, entitlements. */
@Module({
  imports: [WalletModule, PoliciesModule],
  controllers,
  providers: [...commandHandlers, ...queryHandlers, ...projections],
})
export class PurchasingModule {}
