import { randomUUID } from 'node:crypto';
import { CommandBus, ICommand } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { loadConfig } from '../../src/config/app-config';
import { EventStore } from '../../src/event-store/event-store';
import { ChargeSavedMethodCommand } from '../../src/modules/billing/commands/charge-saved-method/charge-saved-method.command';
import { RecordTopUpChargeCommand } from '../../src/modules/wallet/commands/record-top-up-charge/record-top-up-charge.command';
import { userWallet } from '../../src/modules/wallet/domain/wallet-owner';
import { Queues } from '../../src/platform/queue/queues';
import { AutoTopUpProcess } from '../../src/sagas/auto-top-up/auto-top-up.process';
import { Caller, eventually, newCaller } from '../support/accounts';
import { startTestApp, TestApp } from '../support/app';
import { json } from '../support/http';
import { settleSandboxIntent } from '../support/wallet';

describe('the auto top-up process, killed halfway', () => {
  let app: TestApp;
  let caller: Caller;

  beforeAll(async () => {
    app = await startTestApp(); // the sandbox gateway; this test settles intents itself
    caller = await newCaller(app);
  });
  afterAll(() => app.close());

  it('charges once and records the charge once when the process dies after the charge and runs again', async () => {
    const { clientSecret } = await json(await caller.call('POST', '/v1/billing/setup-intent'));
    await settleSandboxIntent(app, clientSecret.split('_secret_')[0]);
    await eventually(
      async () => (await json(await caller.call('GET', '/v1/billing/payment-methods'))).paymentMethods.length === 1,
    );

    const bus = app.server.app.get(CommandBus);
    const dying = {
      execute: (command: ICommand) => {
        if (command instanceof RecordTopUpChargeCommand) throw new Error('killed after the charge');
        return bus.execute(command);
      },
    } as unknown as CommandBus;
    const config = loadConfig({ NODE_ENV: 'test', RUN_PROCESSORS: 'false' });
    const job = {
      topUpId: randomUUID(),
      owner: userWallet(caller.userId),
      amountCents: 2500,
      causationId: randomUUID(),
      correlationId: randomUUID(),
    };

    await expect(new AutoTopUpProcess(dying, app.server.app.get(Queues), config).run(job)).rejects.toThrow('killed');
    await new AutoTopUpProcess(bus, app.server.app.get(Queues), config).run(job);

    const intents = await app.server.app
      .get(DataSource)
      .query('SELECT id, amount_cents FROM sandbox_payment_intents WHERE idempotency_key = $1', [job.topUpId]);
    expect(intents).toEqual([{ id: expect.stringMatching(/^pi_/), amount_cents: 2500 }]);
    const topUp = await app.server.app.get(EventStore).readStream(`top-up-${job.topUpId}`);
    expect(topUp.map((e) => e.type)).toEqual(['TopUpRequested', 'TopUpCharged']);
    expect(topUp[1].data.paymentIntentId).toBe(intents[0].id);

    // Run again once charged (a redelivered job, the processor's key long forgotten): no second charge.
    await new AutoTopUpProcess(bus, app.server.app.get(Queues), config).run(job);
    expect(
      await app.server.app
        .get(DataSource)
        .query('SELECT count(*)::int AS n FROM sandbox_payment_intents WHERE metadata @> $1', [
          JSON.stringify({ topUpId: job.topUpId }),
        ]),
    ).toEqual([{ n: 1 }]);

    await settleSandboxIntent(app, intents[0].id);
    const { transactions } = await eventually(async () => {
      const page = await json(await caller.call('GET', '/v1/wallet/transactions'));
      return page.transactions.length === 1 && page;
    });
    expect(transactions[0]).toMatchObject({ type: 'auto_top_up', amountCents: 2500, balanceAfterCents: 2500 });
  });

  it('fails the top-up when its last attempt fails, so the wallet may ask again', async () => {
    const bus = app.server.app.get(CommandBus);
    const processorDown = {
      execute: (command: ICommand) => {
        if (command instanceof ChargeSavedMethodCommand) throw new Error('processor unreachable');
        return bus.execute(command);
      },
    } as unknown as CommandBus;
    const config = loadConfig({ NODE_ENV: 'test', RUN_PROCESSORS: 'false' });
    const data = {
      topUpId: randomUUID(),
      owner: userWallet(caller.userId),
      amountCents: 1000,
      causationId: randomUUID(),
      correlationId: randomUUID(),
    };
    const process = new AutoTopUpProcess(processorDown, app.server.app.get(Queues), config);
    await expect(process.deliver({ data, attemptsMade: 0, opts: { attempts: 3 } })).rejects.toThrow('unreachable');
    const stream = () => app.server.app.get(EventStore).readStream(`top-up-${data.topUpId}`);
    expect((await stream()).map((e) => e.type)).toEqual(['TopUpRequested']);
    await expect(process.deliver({ data, attemptsMade: 2, opts: { attempts: 3 } })).rejects.toThrow('unreachable');
    expect((await stream()).map((e) => e.type)).toEqual(['TopUpRequested', 'TopUpFailed']);
  });
});
