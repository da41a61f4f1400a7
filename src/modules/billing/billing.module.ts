import { Module } from '@nestjs/common';
import { paymentGatewayProviders } from './adapters/payment-gateway.provider';
import { WebhookSignature } from './adapters/webhook-signature';
import { BillingCustomers } from './commands/billing-customers';
import { ChargeSavedMethodHandler } from './commands/charge-saved-method/charge-saved-method.handler';
import { OpenPortalSessionHandler } from './commands/open-portal-session/open-portal-session.handler';
import { OpenSetupIntentHandler } from './commands/open-setup-intent/open-setup-intent.handler';
import { ReceivePaymentEventHandler } from './commands/receive-payment-event/receive-payment-event.handler';
import { SavePaymentMethodHandler } from './commands/save-payment-method/save-payment-method.handler';
import { PaymentGateway } from './domain/payment-gateway';
import { BillingController } from './http/billing.controller';
import { PayWebhookController } from './http/pay-webhook.controller';
import { GetPaymentMethodsHandler } from './queries/get-payment-methods/get-payment-methods.handler';
import { BillingCustomersProjection } from './read-models/billing-customers.projection';
import { SandboxSettlementWorker } from './workers/sandbox-settlement.worker';
import './events'; // declares the module's event types before anything appends them

const controllers = [BillingController, PayWebhookController];
const commandHandlers = [
  ReceivePaymentEventHandler,
  OpenSetupIntentHandler,
  OpenPortalSessionHandler,
  SavePaymentMethodHandler,
  ChargeSavedMethodHandler,
];
const queryHandlers = [GetPaymentMethodsHandler];
const projections = [BillingCustomersProjection];
const services = [BillingCustomers];
const adapters = paymentGatewayProviders;
const workers = [SandboxSettlementWorker];

/** Billing: the payment processor (gateway, webhooks), processor customers and saved cards. */
@Module({
  controllers,
  providers: [...commandHandlers, ...queryHandlers, ...projections, ...services, ...adapters, ...workers],
  exports: [PaymentGateway, WebhookSignature],
})
export class BillingModule {}
