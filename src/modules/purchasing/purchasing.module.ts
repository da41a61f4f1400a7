import { Module } from '@nestjs/common';
import { WalletModule } from '../wallet/wallet.module';
import { PurchaseHandler } from './commands/purchase/purchase.handler';
import { BillingOverviewsController } from './http/billing-overviews.controller';
import { PurchasesController } from './http/purchases.controller';
import { VendorAnalyticsController } from './http/vendor-analytics.controller';
import { GetBuyerOverviewHandler } from './queries/get-buyer-overview/get-buyer-overview.handler';
import { GetSellerOverviewHandler } from './queries/get-seller-overview/get-seller-overview.handler';
import { GetVendorAnalyticsHandler } from './queries/get-vendor-analytics/get-vendor-analytics.handler';
import { GetEntitlementHandler } from './queries/get-entitlement/get-entitlement.handler';
import { ListEntitlementsHandler } from './queries/list-entitlements/list-entitlements.handler';
import { ListOrdersHandler } from './queries/list-orders/list-orders.handler';
import { PurchasesProjection } from './read-models/purchases.projection';
import { VendorSalesReader } from './read-models/vendor-sales.reader';
import './events'; // declares the module's event types before anything appends them

const controllers = [PurchasesController, BillingOverviewsController, VendorAnalyticsController];
const commandHandlers = [PurchaseHandler];
const queryHandlers = [
  ListEntitlementsHandler,
  GetEntitlementHandler,
  ListOrdersHandler,
  GetBuyerOverviewHandler,
  GetSellerOverviewHandler,
  GetVendorAnalyticsHandler,
];
const projections = [PurchasesProjection];
const readers = [VendorSalesReader];

/** Purchasing: purchases (free, wallet, card), orders with the fee split, entitlements, and the money views built on orders. */
@Module({
  imports: [WalletModule],
  controllers,
  providers: [...commandHandlers, ...queryHandlers, ...projections, ...readers],
})
export class PurchasingModule {}
