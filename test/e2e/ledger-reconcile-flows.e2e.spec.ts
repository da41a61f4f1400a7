import { randomUUID } from 'node:crypto';
import { loadConfig } from '../../src/config/app-config';
import { runLedgerCli } from '../../src/ledger/ledger-cli';
import { eventually } from '../support/accounts';
import { json } from '../support/http';
import {
  allProcessorsSettled,
  driveMoneyAndNetworkFlows,
  FlowsRecord,
  FlowsWorld,
  startFlowsWorld,
} from '../support/money-and-network-flows';

/**
 * `ledger reconcile` against the processor (a loopback Stripe through the real SDK) after an honest
 * history of every money flow: nothing to report. Policies and auto top-up settings carry amounts in
 * cents that are limits, not money; the books know them and never count them as findings.
 */
describe('npm run ledger -- reconcile, after the money and network flows', () => {
  let world: FlowsWorld;
  let flows: FlowsRecord;

  beforeAll(async () => {
    world = await startFlowsWorld();
    flows = await driveMoneyAndNetworkFlows(world);
  }, 600_000);
  afterAll(() => world?.close());

  const reconcile = async (...args: string[]) => {
    const lines: string[] = [];
    const code = await runLedgerCli(
      ['reconcile', ...args],
      loadConfig({ DATABASE_URL: world.app.db.url, LOG_LEVEL: 'silent', ...world.paymentEnv }),
      { print: (text) => lines.push(text) },
    );
    return { code, output: lines.join('\n') };
  };

  it('exits 0 with no finding and a zero trial balance', async () => {
    const { code, output } = await reconcile('--json');
    const report = JSON.parse(output);
    expect(report.findings).toEqual([]);
    expect(report).toMatchObject({ trialBalanceCents: 0, unexplained: 0 });
    expect(report.checked.processor).toBeGreaterThan(0);
    expect(code).toBe(0);
  });

  it('exits 1 naming the intent when a wallet was credited for an intent the processor does not report as succeeded', async () => {
    const { alice } = flows;
    const { clientSecret } = await json(await alice.call('POST', '/v1/wallet/top-up', { amountCents: 1_500 }));
    const intentId = clientSecret.split('_secret_')[0];
    // The processor declines it, yet a correctly signed report of success arrives (a leaked secret, or the processor's error).
    const declined = world.stripe.failPaymentIntent(intentId);
    await world.deliver({
      ...declined,
      id: `evt_${randomUUID().replace(/-/g, '')}`,
      type: 'payment_intent.succeeded',
      data: { object: { ...declined.data.object, status: 'succeeded', last_payment_error: null } },
    });
    await eventually(
      async () => (await json(await alice.call('GET', '/v1/wallet'))).balanceCents === flows.aliceBalanceCents + 1_500,
      { description: 'the credit' },
    );
    await allProcessorsSettled(world.app);

    const { code, output } = await reconcile('--json');
    expect(code).toBe(1);
    const { findings } = JSON.parse(output);
    expect(findings).toEqual([
      expect.objectContaining({ kind: 'credit_without_payment', explained: false, detail: expect.stringContaining(intentId) }),
    ]);
    const text = await reconcile();
    expect(text.code).toBe(1);
    expect(text.output).toContain(intentId);
  });
});
