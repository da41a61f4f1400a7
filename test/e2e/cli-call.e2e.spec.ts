import { randomUUID } from 'node:crypto';
import { newCaller } from '../support/accounts';
import { startTestApp, TestApp } from '../support/app';
import { CatalogSeed } from '../support/catalog-seed';
import { CliUser } from '../support/cli';
import { FakeService, PATIENT, startFakeService } from '../support/fake-services';
import { json } from '../support/http';
import { Relay } from '../support/relay';
import { fundWallet } from '../support/wallet';

describe('svc call against the agent network', () => {
  let app: TestApp;
  let service: FakeService;
  let ref: string;
  const users: CliUser[] = [];

  beforeAll(async () => {
    app = await startTestApp({ env: { ALLOW_PRIVATE_SERVICE_ENDPOINTS: 'true', ...PATIENT } });
    const seed = await CatalogSeed.for(app);
    const vendor = await seed.vendor(`cli-${randomUUID().slice(0, 8)}`);
    service = await startFakeService('mcp-streamable');
    const slug = `live-${randomUUID().slice(0, 8)}`;
    await seed.listing({
      vendor,
      slug,
      changes: {
        serviceEndpoint: service.url,
        serviceProtocol: 'mcp',
        serviceTransport: 'streamable_http',
        pricingModel: 'metered',
        perCallCents: 25,
        settlementMethods: ['wallet'],
      },
    });
    ref = `${vendor.slug}/${slug}`;
  });
  afterAll(async () => {
    await Promise.all(users.map((user) => user.remove()));
    await service?.close();
    await app?.close();
  });

  const cliFor = async (token: string) => {
    const user = await CliUser.create(app.url, { SVC_TOKEN: token });
    users.push(user);
    return user;
  };

  it('calls a live MCP tool, charged once against the wallet, and prints the answer as JSON', async () => {
    const buyer = await newCaller(app);
    await fundWallet(app, buyer, 1000);
    const cli = await cliFor(buyer.token);

    const result = await cli.run(['call', ref, 'echo', '--input', '{"text":"hello from the terminal"}', '--json']);
    expect(result.code).toBe(0);
    expect(result.json()).toMatchObject({ costCents: 25, walletBalanceCents: 975, usageRecordId: expect.any(String) });
    expect(JSON.stringify(result.json().result)).toContain('hello from the terminal');
    expect((await json(await buyer.call('GET', '/v1/wallet'))).balanceCents).toBe(975);
  });

  it('exits 3 when the wallet cannot pay or the cost is above --max-cost, charging nothing', async () => {
    const poor = await newCaller(app);
    const broke = await (await cliFor(poor.token)).run(['call', ref, 'echo', '--input', '{}', '--json']);
    expect(broke.code).toBe(3);
    expect(broke.stderr).toMatch(/balance|insufficient/i);

    const buyer = await newCaller(app);
    await fundWallet(app, buyer, 1000);
    const capped = await (await cliFor(buyer.token)).run(['call', ref, 'echo', '--max-cost', '10', '--json']);
    expect(capped.code).toBe(3);
    expect((await json(await buyer.call('GET', '/v1/wallet'))).balanceCents).toBe(1000);
  });

  it('sends a fresh Idempotency-Key and, when the answer is lost, retries with it: charged once', async () => {
    const relay = await Relay.start();
    relay.target = app.url;
    try {
      const buyer = await newCaller(app);
      await fundWallet(app, buyer, 1000);
      const cli = await CliUser.create(relay.url, { SVC_TOKEN: buyer.token });
      users.push(cli);
      relay.loseAnswers = 1;
      const result = await cli.run(['call', ref, 'echo', '--input', '{"text":"again"}', '--json']);
      expect(result.code).toBe(0);
      const calls = relay.seen.filter((r) => r.method === 'POST');
      expect(calls).toHaveLength(2);
      expect(calls[0].idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
      expect(calls[1].idempotencyKey).toBe(calls[0].idempotencyKey);
      expect(result.json()).toMatchObject({ costCents: 25, walletBalanceCents: 975 });
      expect((await json(await buyer.call('GET', '/v1/wallet'))).balanceCents).toBe(975);

      // Another invocation is another operation: a new key.
      await cli.run(['call', ref, 'echo', '--json']);
      const keys = relay.seen.filter((r) => r.method === 'POST').map((r) => r.idempotencyKey);
      expect(new Set(keys).size).toBe(2);
    } finally {
      await relay.close();
    }
  });

  it('exits 2 on input that is not a JSON object, before calling anything', async () => {
    const buyer = await newCaller(app);
    const cli = await cliFor(buyer.token);
    expect((await cli.run(['call', ref, 'echo', '--input', '[1,2]'])).code).toBe(2);
    expect((await cli.run(['call', ref, 'echo', '--input', 'not json'])).code).toBe(2);
  });
});
