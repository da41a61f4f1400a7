import { SandboxPaymentGateway } from '../../src/modules/billing/adapters/sandbox-payment-gateway';
import { PaymentGateway } from '../../src/modules/billing/domain/payment-gateway';
import { Caller, eventually } from './accounts';
import { TestApp } from './app';
import { json } from './http';

/**
 * Settles a sandbox intent as the processor would: its signed success event,
 * delivered to the webhook. For apps on the sandbox gateway with PAY_SANDBOX_AUTO_SETTLE=false.
 */
export async function settleSandboxIntent(app: TestApp, intentId: string): Promise<void> {
  const sandbox = app.server.app.get(PaymentGateway) as SandboxPaymentGateway;
  const { payload, signature } = await sandbox.settle(intentId);
  const delivered = await fetch(`${app.url}/v1/webhooks/pay`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'pay-signature': signature },
    body: payload,
  });
  if (delivered.status !== 200) throw new Error(`the webhook answered ${delivered.status}`);
}

/** Tops the caller's wallet up through the sandbox and waits until the balance shows it. */
export async function fundWallet(app: TestApp, caller: Caller, amountCents: number): Promise<void> {
  const before = (await json(await caller.call('GET', '/v1/wallet'))).balanceCents as number;
  const answer = await caller.call('POST', '/v1/wallet/top-up', { amountCents });
  if (answer.status !== 200) throw new Error(`top-up answered ${answer.status}`);
  await settleSandboxIntent(app, (await json(answer)).clientSecret.split('_secret_')[0]);
  await eventually(async () => (await json(await caller.call('GET', '/v1/wallet'))).balanceCents === before + amountCents, {
    description: `a top-up of ${amountCents} cents to be credited`,
  });
}

/** Saves the sandbox's test card for the caller. */
export async function saveSandboxCard(app: TestApp, caller: Caller): Promise<void> {
  const { clientSecret } = await json(await caller.call('POST', '/v1/billing/setup-intent'));
  await settleSandboxIntent(app, clientSecret.split('_secret_')[0]);
  await eventually(async () => (await json(await caller.call('GET', '/v1/billing/payment-methods'))).paymentMethods.length > 0, {
    description: 'the card to be saved',
  });
}
