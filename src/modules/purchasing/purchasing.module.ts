import { randomBytes } from 'node:crypto';
import { Module } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { secretUnder } from '../../platform/secrets/generated-secret';
import { OrgsModule } from '../orgs/orgs.module';
import { PoliciesModule } from '../policies/policies.module';
import { WalletModule } from '../wallet/wallet.module';
import { ApprovePurchaseHandler, DeclinePurchaseHandler } from './commands/approve-purchase/approve-purchase.handler';
import { ChargeCardPurchaseHandler } from './commands/charge-card-purchase/charge-card-purchase.handler';
import { CompleteCardPurchaseHandler } from './commands/complete-card-purchase/complete-card-purchase.handler';
import { FailCardPurchaseHandler } from './commands/fail-card-purchase/fail-card-purchase.handler';
import { IssueDownloadHandler } from './commands/issue-download/issue-download.handler';
import { ApprovalsController } from './http/approvals.controller';
import { GetApprovalHandler, ListApprovalsHandler } from './queries/list-approvals/list-approvals.handler';
import { ApprovalsProjection } from './read-models/approvals.projection';
import { PurchaseHandler } from './commands/purchase/purchase.handler';
import { DownloadLinks } from './domain/download-link';
import { DownloadsController } from './http/downloads.controller';
import { BillingOverviewsController } from './http/billing-overviews.controller';
import { PurchasesController } from './http/purchases.controller';
import { VendorAnalyticsController } from './http/vendor-analytics.controller';
import { GetBuyerOverviewHandler } from './queries/get-buyer-overview/get-buyer-overview.handler';
import { GetSellerOverviewHandler } from './queries/get-seller-overview/get-seller-overview.handler';
import { GetVendorAnalyticsHandler } from './queries/get-vendor-analytics/get-vendor-analytics.handler';
import { GetEntitlementHandler } from './queries/get-entitlement/get-entitlement.handler';
import { ListEntitlementsHandler } from './queries/list-entitlements/list-entitlements.handler';
import { ListOrdersHandler } from './queries/list-orders/list-orders.handler';
import { OpenDownloadHandler } from './queries/open-download/open-download.handler';
import { PurchasesProjection } from './read-models/purchases.projection';
import { VendorSalesReader } from './read-models/vendor-sales.reader';
import './events'; // declares the module's event types before anything appends them

/**
 * The key download URLs are signed with: DOWNLOAD_URL_SECRET, or one generated
 * once under DATA_DIR (`download-url.key`), so links survive a restart.
 */
export function downloadLinksFor(config: AppConfig): DownloadLinks {
  const key = config.downloads.urlSecret
    ? Buffer.from(config.downloads.urlSecret, 'utf8')
    : Buffer.from(
        secretUnder(config.dataDir, 'download-url.key', () => randomBytes(32).toString('base64')),
        'base64',
      );
  return new DownloadLinks(key, config.baseUrl);
}

const controllers = [
  PurchasesController,
  ApprovalsController,
  DownloadsController,
  BillingOverviewsController,
  VendorAnalyticsController,
];
const commandHandlers = [
  PurchaseHandler,
  ChargeCardPurchaseHandler,
  CompleteCardPurchaseHandler,
  FailCardPurchaseHandler,
  ApprovePurchaseHandler,
  DeclinePurchaseHandler,
  IssueDownloadHandler,
];
const queryHandlers = [
  ListEntitlementsHandler,
  GetEntitlementHandler,
  ListOrdersHandler,
  ListApprovalsHandler,
  GetApprovalHandler,
  OpenDownloadHandler,
  GetBuyerOverviewHandler,
  GetSellerOverviewHandler,
  GetVendorAnalyticsHandler,
];
const projections = [PurchasesProjection, ApprovalsProjection];
const readers = [VendorSalesReader];
const signers = [{ provide: DownloadLinks, inject: [APP_CONFIG], useFactory: downloadLinksFor }];

/**
 * Purchasing: purchases (free, wallet, card) under spend policies and their approvals, orders with the fee split,
 * entitlements, signed downloads, and the money views built on orders (billing overviews, vendor analytics).
 */
@Module({
  imports: [WalletModule, PoliciesModule, OrgsModule],
  controllers,
  providers: [...commandHandlers, ...queryHandlers, ...projections, ...readers, ...signers],
})
export class PurchasingModule {}
