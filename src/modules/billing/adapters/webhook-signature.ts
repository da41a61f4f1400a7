import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';
import { PaymentsConfig } from '../../../config/app-config';
import { secretUnder } from '../../../platform/secrets/generated-secret';

/**
 * How far a signed timestamp may be from our clock, in seconds: the processor's own default. The SDK
 * bounds only its age; a timestamp this far ahead is refused too, so a signature made for a later
 * time (a clock gone wrong, or a secret used to sign events in advance) cannot be replayed until then.
 */
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

  /** True when `header` signs exactly these bytes with one of our secrets, at a time no more than 300 s from `now`. */
  verifies(rawBody: Buffer, header: string | undefined, now: Date): boolean {
    if (!header) return false;
    const signedAt = signedTimestamp(header);
    if (signedAt === null || signedAt - Math.floor(now.getTime() / 1000) > SIGNATURE_TOLERANCE_SECONDS) return false;
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

/**
 * The header's `t`, read as the SDK reads it (the last `t=` wins, `parseInt`), so the time we bound is the
 * time that was signed; null when there is none.
 */
function signedTimestamp(header: string): number | null {
  let timestamp: number | null = null;
  for (const item of header.split(',')) {
    const [key, value] = item.split('=');
    if (key === 't') timestamp = parseInt(value, 10);
  }
  return timestamp === null || Number.isNaN(timestamp) ? null : timestamp;
}

/** STRIPE_WEBHOOK_SECRET, or (sandbox only) a secret generated once under DATA_DIR. */
export function webhookSecretFor(payments: PaymentsConfig, dataDir: string): string {
  return (
    payments.webhookSecret ?? secretUnder(dataDir, 'pay-webhook.secret', () => `whsec_${randomBytes(24).toString('base64url')}`)
  );
}
