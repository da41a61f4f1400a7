import { Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { paymentGatewayProviders } from './adapters/payment-gateway.provider';
import { WebhookSignature } from './adapters/webhook-signature';
import { BillingCustomers } from './commands/billing-customers';
import { ConnectedAccounts } from './commands/connected-accounts';
import { ChargeSavedMethodHandler } from './commands/charge-saved-method/charge-saved-method.handler';
import { OpenCardSetupSessionHandler } from './commands/open-card-setup-session/open-card-setup-session.handler';
import { OpenSellerDashboardHandler } from './commands/open-seller-dashboard/open-seller-dashboard.handler';
import { OpenPortalSessionHandler } from './commands/open-portal-session/open-portal-session.handler';
import { OpenSetupIntentHandler } from './commands/open-setup-intent/open-setup-intent.handler';
import { ReceivePaymentEventHandler } from './commands/receive-payment-event/receive-payment-event.handler';
import { RecordAccountStatusHandler } from './commands/record-account-status/record-account-status.handler';
import { RemovePaymentMethodHandler } from './commands/remove-payment-method/remove-payment-method.handler';
import { SavePaymentMethodHandler } from './commands/save-payment-method/save-payment-method.handler';
import { StartSellerOnboardingHandler } from './commands/start-seller-onboarding/start-seller-onboarding.handler';
import { PaymentGateway } from './domain/payment-gateway';
import { BillingController } from './http/billing.controller';
import { PayWebhookController } from './http/pay-webhook.controller';
import { SandboxCardInterceptor } from './http/sandbox-card.interceptor';
import { SellerPayoutsController } from './http/seller-payouts.controller';
import { GetPaymentMethodsHandler } from './queries/get-payment-methods/get-payment-methods.handler';
import { GetSellerAccountHandler } from './queries/get-seller-account/get-seller-account.handler';
import { BillingCustomersProjection } from './read-models/billing-customers.projection';
import { ConnectedAccountsProjection } from './read-models/connected-accounts.projection';
import { SandboxSettlementWorker } from './workers/sandbox-settlement.worker';
import './events'; // declares the module's event types before anything appends them

const controllers = [BillingController, PayWebhookController, SellerPayoutsController];
const commandHandlers = [
  ReceivePaymentEventHandler,
  OpenSetupIntentHandler,
  OpenCardSetupSessionHandler,
  OpenPortalSessionHandler,
  SavePaymentMethodHandler,
  RemovePaymentMethodHandler,
  ChargeSavedMethodHandler,
  StartSellerOnboardingHandler,
  OpenSellerDashboardHandler,
  RecordAccountStatusHandler,
];
const queryHandlers = [GetPaymentMethodsHandler, GetSellerAccountHandler];
const projections = [BillingCustomersProjection, ConnectedAccountsProjection];
const services = [BillingCustomers, ConnectedAccounts];
const adapters = paymentGatewayProviders;
const workers = [SandboxSettlementWorker];
/** `Pay-Sandbox-Card`, on every route: the test card a sandbox customer typed (see SandboxCardEntry). */
const interceptors = [{ provide: APP_INTERCEPTOR, useClass: SandboxCardInterceptor }];

/** Billing: the payment processor (gateway, webhooks), processor customers and saved cards, vendors' connected accounts. */
@Module({
  controllers,
  providers: [...commandHandlers, ...queryHandlers, ...projections, ...services, ...adapters, ...workers, ...interceptors],
  exports: [PaymentGateway, WebhookSignature],
})
export class BillingModule {}
