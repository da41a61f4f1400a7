import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';
import { PaymentsConfig } from '../../../config/app-config';
import { secretUnder } from '../../../platform/secrets/generated-secret';

/** How old a signed timestamp may be, in seconds: the processor's own default. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

/**
 * The processor's webhook signature scheme, `t=<unix seconds>,v1=<hex
 * HMAC-SHA256 of "<t>.<raw body>">` (several `v1` allowed), checked with the
 * processor's own SDK. The sandbox signs what it delivers to us the same way.
 */
export class WebhookSignature {
  /** `also`: further secrets a signature may be made with (Stripe signs a Connect endpoint with its own). */
  constructor(
    private readonly secret: string,
    private readonly also: string[] = [],
  ) {}

  /** True when `header` signs exactly these bytes with one of our secrets, no more than 300 s before `now`. */
  verifies(rawBody: Buffer, header: string | undefined, now: Date): boolean {
    if (!header) return false;
    return [this.secret, ...this.also].some((secret) => {
      try {
        return Stripe.webhooks.signature!.verifyHeader(
          rawBody,
          header,
          secret,
          SIGNATURE_TOLERANCE_SECONDS,
          undefined,
          now.getTime(),
        );
      } catch {
        return false;
      }
    });
  }

  sign(payload: string, at: Date): string {
    return Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: this.secret,
      timestamp: Math.floor(at.getTime() / 1000),
    });
  }
}

/** STRIPE_WEBHOOK_SECRET, or (sandbox only) a secret generated once under DATA_DIR. */
export function webhookSecretFor(payments: PaymentsConfig, dataDir: string): string {
  return (
    payments.webhookSecret ?? secretUnder(dataDir, 'pay-webhook.secret', () => `whsec_${randomBytes(24).toString('base64url')}`)
  );
}
