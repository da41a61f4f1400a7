import { randomUUID } from 'node:crypto';
import { CommandBus } from '@nestjs/cqrs';
import { DebitWalletCommand } from '../../src/modules/wallet/commands/debit-wallet/debit-wallet.command';
import { userWallet } from '../../src/modules/wallet/domain/wallet-owner';
import { Caller, eventually, newCaller } from '../support/accounts';
import { startTestApp, TestApp } from '../support/app';
import { json } from '../support/http';

describe('the sandbox gateway, with no payment configuration', () => {
  let app: TestApp;
  let caller: Caller;

  beforeAll(async () => {
    // No STRIPE_* variable: the sandbox, settling by itself through a signed webhook to this server.
    app = await startTestApp({ env: { PAY_SANDBOX_AUTO_SETTLE: 'true' } });
    caller = await newCaller(app);
  });
  afterAll(() => app.close());

  const wallet = async () => json(await caller.call('GET', '/v1/wallet'));

  it('settles a top-up by itself and the balance shows it', async () => {
    const answer = await caller.call('POST', '/v1/wallet/top-up', { amountCents: 2000 });
    expect(answer.status).toBe(200);
    expect((await json(answer)).clientSecret).toMatch(/^pi_[A-Za-z0-9]+_secret_[A-Za-z0-9]+$/);
    await eventually(async () => (await wallet()).balanceCents === 2000, { description: 'the sandbox to settle the top-up' });
    const { transactions } = await json(await caller.call('GET', '/v1/wallet/transactions'));
    expect(transactions).toEqual([expect.objectContaining({ type: 'top_up', amountCents: 2000, balanceAfterCents: 2000 })]);
  });

  it('saves a sandbox card from a setup intent, and an auto top-up charges it once when a debit crosses the threshold', async () => {
    expect((await caller.call('POST', '/v1/billing/setup-intent')).status).toBe(200);
    const { paymentMethods } = await eventually(async () => {
      const body = await json(await caller.call('GET', '/v1/billing/payment-methods'));
      return body.paymentMethods.length === 1 && body;
    });
    expect(paymentMethods[0]).toMatchObject({ brand: 'visa', last4: '4242' });
    const configured = await caller.call('PATCH', '/v1/wallet/auto-top-up', {
      enabled: true,
      thresholdCents: 1000,
      amountCents: 1500,
    });
    expect(configured.status).toBe(200);

    await app.server.app
      .get(CommandBus)
      .execute(new DebitWalletCommand(userWallet(caller.userId), randomUUID(), 1500, 'purchase', 'A package'));
    // The debit was sent outside a request, so nothing waited for the read model: wait for the statement itself.
    const { transactions } = await eventually(
      async () => {
        const page = await json(await caller.call('GET', '/v1/wallet/transactions'));
        return page.transactions.length === 3 && page;
      },
      { description: 'the auto top-up to settle' },
    );
    expect((await wallet()).balanceCents).toBe(2000);
    expect(transactions[0]).toMatchObject({ type: 'auto_top_up', amountCents: 1500, balanceAfterCents: 2000 });
    expect(transactions[1]).toMatchObject({ type: 'purchase', amountCents: -1500, balanceAfterCents: 500 });
  });

  it('answers a portal url', async () => {
    const answer = await caller.call('POST', '/v1/billing/portal-session');
    expect(answer.status).toBe(200);
    expect((await json(answer)).url).toMatch(/^http/);
  });
});
