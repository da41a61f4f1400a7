import { randomUUID } from 'node:crypto';
import { EventStore } from '../../src/event-store/event-store';
import { APP_CONFIG } from '../../src/config/config.module';
import { ServiceClient } from '../../src/modules/network/clients/service-client';
import { CallLedger } from '../../src/modules/network/commands/call-ledger';
import { CallServiceCommand } from '../../src/modules/network/commands/call-service/call-service.command';
import { CallServiceHandler } from '../../src/modules/network/commands/call-service/call-service.handler';
import { serviceCallStreamId } from '../../src/modules/network/domain/service-call.decider';
import { ServiceDirectory } from '../../src/modules/network/read-models/service-directory';
import { Clock } from '../../src/platform/clock/clock';
import { eventually, newCaller } from '../support/accounts';
import { startTestApp, TestApp } from '../support/app';
import { CatalogSeed } from '../support/catalog-seed';
import { FakeService, startFakeService, PATIENT } from '../support/fake-services';
import { json } from '../support/http';
import { fundWallet } from '../support/wallet';

describe('a metered call killed between reservation and settlement', () => {
  let app: TestApp;
  let service: FakeService;

  beforeAll(async () => {
    app = await startTestApp({ env: { ALLOW_PRIVATE_SERVICE_ENDPOINTS: 'true', SERVICE_CALL_TIMEOUT_MS: '500', ...PATIENT } });
    service = await startFakeService('https');
  });
  afterAll(async () => {
    await service.close();
    await app.close();
  });

  it('is released by the service-call saga after its settle-by time: refunded once, never charged twice', async () => {
    const seed = await CatalogSeed.for(app);
    const vendor = await seed.vendor(`halfway-${randomUUID().slice(0, 8)}`);
    const slug = `svc-${randomUUID().slice(0, 8)}`;
    await seed.listing({
      vendor,
      slug,
      changes: {
        serviceEndpoint: service.url,
        serviceProtocol: 'https',
        pricingModel: 'metered',
        perCallCents: 40,
        settlementMethods: ['wallet'],
      },
    });
    const caller = await newCaller(app);
    await fundWallet(app, caller, 1000);

    // The process making the call dies after the upstream call, before it can settle.
    const nest = app.server.app;
    const ledger = nest.get(CallLedger);
    const dying = Object.assign(Object.create(ledger) as CallLedger, {
      settle: () => Promise.reject(new Error('killed before the settlement')),
    });
    const handler = new CallServiceHandler(
      nest.get(ServiceDirectory),
      dying,
      nest.get(ServiceClient),
      nest.get(Clock),
      nest.get(APP_CONFIG),
    );
    await expect(
      handler.execute(new CallServiceCommand(caller.userId, vendor.slug, slug, { tool: 'echo', input: {} })),
    ).rejects.toThrow('killed');
    expect(service.calls).toHaveLength(1);

    const store = nest.get(EventStore);
    const [reserved] = (await store.readAll({ maxCount: 100_000 })).filter((e) => e.type === 'ServiceCallReserved');
    const callId = reserved.data.callId as string;

    // Released by the saga, with a refund credit; the wallet is whole again.
    const settled = await eventually(
      async () => {
        const events = await store.readStream(serviceCallStreamId(callId));
        return events.length === 2 && events;
      },
      { timeoutMs: 20_000, description: 'the saga to release the abandoned call' },
    );
    expect(settled[1]).toMatchObject({ type: 'ServiceCalled', data: { outcome: 'abandoned', chargedCents: 0 } });
    await eventually(async () => (await json(await caller.call('GET', '/v1/wallet'))).balanceCents === 1000);
    const { transactions } = await json(await caller.call('GET', '/v1/wallet/transactions'));
    expect(
      transactions
        .filter((t: { type: string }) => t.type !== 'top_up')
        .map((t: { type: string; amountCents: number }) => [t.type, t.amountCents]),
    ).toEqual([
      ['refund', 40],
      ['metered_usage', -40],
    ]);

    // Settling again (the dead request's late settlement, a redelivered job) changes nothing.
    expect(await ledger.settle(callId, 'success', 5, null)).toBe('abandoned');
    expect(await store.readStream(serviceCallStreamId(callId))).toHaveLength(2);
    expect((await json(await caller.call('GET', '/v1/wallet'))).balanceCents).toBe(1000);
  });
});
