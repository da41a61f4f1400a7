import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import type { Job } from 'bullmq';
import { AppConfig } from '../../../config/app-config';
import { InjectConfig } from '../../../config/config.module';
import { Queues } from '../../../platform/queue/queues';
import { SandboxPaymentGateway } from '../adapters/sandbox-payment-gateway';
import { PaymentGateway } from '../domain/payment-gateway';
import { SANDBOX_SETTLEMENT_QUEUE, SandboxSettlementJob } from './sandbox-settlement.jobs';

/** Provides `() => string`: the URL of our own `POST /v1/webhooks/pay` (see ownWebhookUrlFrom). */
export const SANDBOX_WEBHOOK_URL = Symbol('SANDBOX_WEBHOOK_URL');

/** How long one delivery may take; past it the attempt fails and is retried. */
const DELIVERY_TIMEOUT_MS = 10_000;

/**
 * Plays the processor's webhooks for the sandbox gateway: each queued intent
 * is settled (once; see SandboxPaymentGateway.settle) and its signed event
 * POSTed to our own webhook route. Anything but a 2xx answer, or no answer,
 * fails the job, and BullMQ delivers the same event again after a backoff.
 * Runs only where the configured gateway is the sandbox with auto settle on:
 * otherwise no settlement is ever queued.
 */
@Injectable()
export class SandboxSettlementWorker implements OnApplicationBootstrap {
  private readonly logger = new Logger(SandboxSettlementWorker.name);
  private readonly sandbox: SandboxPaymentGateway | undefined;

  constructor(
    private readonly queues: Queues,
    gateway: PaymentGateway,
    @Inject(SANDBOX_WEBHOOK_URL) private readonly webhookUrl: () => string,
    @InjectConfig() private readonly config: AppConfig,
  ) {
    this.sandbox = gateway instanceof SandboxPaymentGateway ? gateway : undefined;
  }

  onApplicationBootstrap(): void {
    if (!this.config.runProcessors || !this.sandbox?.autoSettles) return;
    this.queues.worker<SandboxSettlementJob>(SANDBOX_SETTLEMENT_QUEUE, (job) => this.run(job), { concurrency: 2 });
  }

  /** One delivery attempt; answers the id of the event delivered. */
  async run(job: Pick<Job<SandboxSettlementJob>, 'data' | 'attemptsMade'>): Promise<string> {
    if (!this.sandbox) throw new Error('the configured payment gateway is not the sandbox');
    const { event, payload, signature } = await this.sandbox.settle(job.data.intentId);
    try {
      const response = await fetch(this.webhookUrl(), {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'pay-signature': signature },
        body: payload,
        signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
      });
      await response.body?.cancel(); // the answer's body is not read; release the connection
      if (!response.ok) throw new Error(`the webhook answered ${response.status}`);
    } catch (error) {
      this.logger.warn(
        `${event.type} ${event.id} (${job.data.intentId}) not delivered, attempt ${job.attemptsMade + 1}: ${reasonOf(error)}`,
      );
      throw error;
    }
    return event.id;
  }
}

/**
 * fetch reports a refused connection as "fetch failed", the socket's error as
 * its cause. Read by shape: an error from another realm (a test's) is no `instanceof Error`.
 */
function reasonOf(error: unknown): string {
  const { message, cause } = (error ?? {}) as { message?: unknown; cause?: { message?: unknown; code?: unknown } };
  const text = typeof message === 'string' ? message : String(error);
  const detail = (typeof cause?.message === 'string' && cause.message) || (typeof cause?.code === 'string' && cause.code);
  return detail ? `${text}: ${detail}` : text;
}
