import { Module } from '@nestjs/common';
import { WalletModule } from '../wallet/wallet.module';
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

const controllers = [PurchasesController];
const commandHandlers = [PurchaseHandler, ChargeCardPurchaseHandler, CompleteCardPurchaseHandler, FailCardPurchaseHandler];
const queryHandlers = [ListEntitlementsHandler, GetEntitlementHandler, ListOrdersHandler];
const projections = [PurchasesProjection];

/** Purchasing: purchases (free, wallet, card), orders with the fee split, entitlements. */
@Module({
  imports: [WalletModule],
  controllers,
  providers: [...commandHandlers, ...queryHandlers, ...projections],
})
export class PurchasingModule {}
