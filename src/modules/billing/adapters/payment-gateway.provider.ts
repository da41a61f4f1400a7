import { Provider } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { DataSource } from 'typeorm';
import { AppConfig, PaymentsConfig } from '../../../config/app-config';
import { APP_CONFIG } from '../../../config/config.module';
import { Clock } from '../../../platform/clock/clock';
import { Queues } from '../../../platform/queue/queues';
import { PaymentGateway } from '../domain/payment-gateway';
import { SANDBOX_WEBHOOK_URL } from '../workers/sandbox-settlement.worker';
import { ownWebhookUrlFrom } from './own-webhook-url';
import { sandboxPaymentGatewayFor } from './sandbox-payment-gateway';
import { StripePaymentGateway } from './stripe-payment-gateway';
import { WebhookSignature, webhookSecretFor } from './webhook-signature';

/** Which gateway the configuration selects: the web app shows the card form that goes with it. */
export function paymentGatewayNameFor(payments: PaymentsConfig): PaymentGateway['name'] {
  return payments.stripeSecretKey ? 'stripe' : 'sandbox';
}

/** Stripe when STRIPE_SECRET_KEY is set; otherwise the sandbox, so a fresh start takes (play) money with no configuration. */
export const paymentGatewayProviders: Provider[] = [
  {
    provide: PaymentGateway,
    inject: [APP_CONFIG, DataSource, Queues, Clock],
    useFactory: (config: AppConfig, dataSource: DataSource, queues: Queues, clock: Clock): PaymentGateway => {
      const { stripeSecretKey, stripeApiUrl } = config.payments;
      return paymentGatewayNameFor(config.payments) === 'stripe' && stripeSecretKey
        ? new StripePaymentGateway({ secretKey: stripeSecretKey, apiUrl: stripeApiUrl })
        : sandboxPaymentGatewayFor(config, dataSource, queues, clock);
    },
  },
  {
    provide: WebhookSignature,
    inject: [APP_CONFIG],
    useFactory: (config: AppConfig) =>
      new WebhookSignature(
        webhookSecretFor(config.payments, config.dataDir),
        config.payments.connectWebhookSecret ? [config.payments.connectWebhookSecret] : [],
      ),
  },
  // The sandbox delivers its webhooks to this very server, on the port it listens on.
  { provide: SANDBOX_WEBHOOK_URL, inject: [HttpAdapterHost], useFactory: ownWebhookUrlFrom },
];
