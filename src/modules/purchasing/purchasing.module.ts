import { Module } from '@nestjs/common';
import { WalletModule } from '../wallet/wallet.module';
import { PurchaseHandler } from './commands/purchase/purchase.handler';
import { BillingOverviewsController } from './http/billing-overviews.controller';
import { PurchasesController } from './http/purchases.controller';
import { GetBuyerOverviewHandler } from './queries/get-buyer-overview/get-buyer-overview.handler';
import { GetEntitlementHandler } from './queries/get-entitlement/get-entitlement.handler';
import { ListEntitlementsHandler } from './queries/list-entitlements/list-entitlements.handler';
import { ListOrdersHandler } from './queries/list-orders/list-orders.handler';
import { PurchasesProjection } from './read-models/purchases.projection';
import './events'; // declares the module's event types before anything appends them

const controllers = [PurchasesController, BillingOverviewsController];
const commandHandlers = [PurchaseHandler];
const queryHandlers = [ListEntitlementsHandler, GetEntitlementHandler, ListOrdersHandler, GetBuyerOverviewHandler];
const projections = [PurchasesProjection];

/** Purchasing: purchases (free, wallet, card), orders with the fee split, entitlements. */
@Module({
  imports: [WalletModule],
  controllers,
  providers: [...commandHandlers, ...queryHandlers, ...projections],
})
export class PurchasingModule {}
