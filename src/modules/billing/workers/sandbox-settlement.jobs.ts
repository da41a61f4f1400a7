import type { JobsOptions } from 'bullmq';

/** The sandbox-settlement queue's contract: the sandbox gateway queues a job per intent, the worker settles it. */
export const SANDBOX_SETTLEMENT_QUEUE = 'sandbox-settlement';

export interface SandboxSettlementJob {
  /** `pi_...` or `seti_...` (an intent), or `acct_...` (a connected account whose onboarding completes). */
  intentId: string;
}

/** "A moment later", as a processor's webhook follows the payment. */
export const SETTLE_AFTER_MS = 400;

export function settlementJobOptions(intentId: string): JobsOptions {
  return {
    // One job per intent: a retried create call queues nothing new.
    jobId: intentId,
    delay: SETTLE_AFTER_MS,
    // Exponential from 1 s over 12 attempts: about an hour of redeliveries, enough to outlast a restart.
    attempts: 12,
    backoff: { type: 'exponential', delay: 1_000 },
    removeOnComplete: 1_000,
    removeOnFail: 1_000,
  };
}
