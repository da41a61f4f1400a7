import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { loadConfig } from '../../src/config/app-config';
import { runProjectionsCli } from '../../src/projections/cli/projections-cli';
import { Caller, newCaller } from '../support/accounts';
import { startTestApp, TestApp } from '../support/app';
import { CatalogSeed, SeedVendor } from '../support/catalog-seed';
import { FakeService, FakeServiceKind, startFakeService, PATIENT } from '../support/fake-services';
import { json } from '../support/http';
import { fundWallet } from '../support/wallet';

const PROTOCOLS: Record<
  FakeServiceKind,
  { serviceProtocol: 'mcp' | 'https'; serviceTransport: 'streamable_http' | 'sse' | 'jsonrpc' | null }
> = {
  https: { serviceProtocol: 'https', serviceTransport: null },
  jsonrpc: { serviceProtocol: 'https', serviceTransport: 'jsonrpc' },
  'mcp-streamable': { serviceProtocol: 'mcp', serviceTransport: 'streamable_http' },
  'mcp-sse': { serviceProtocol: 'mcp', serviceTransport: 'sse' },
};

describe('metered service calls', () => {
  let app: TestApp;
  let seed: CatalogSeed;
  let vendor: SeedVendor;
  const services: FakeService[] = [];

  beforeAll(async () => {
    app = await startTestApp({ env: { ALLOW_PRIVATE_SERVICE_ENDPOINTS: 'true', SERVICE_CALL_TIMEOUT_MS: '1500', ...PATIENT } });
    seed = await CatalogSeed.for(app);
    vendor = await seed.vendor(`svc-${randomUUID().slice(0, 8)}`);
  });
  afterAll(async () => {
    await Promise.all(services.map((s) => s.close()));
    await app.close();
  });

  async function liveService(kind: FakeServiceKind, perCallCents = 25, extra: Record<string, unknown> = {}) {
    const service = await startFakeService(kind);
    services.push(service);
    const slug = `live-${randomUUID().slice(0, 8)}`;
    const { listingId } = await seed.listing({
      vendor,
      slug,
      changes: {
        serviceEndpoint: service.url,
        ...PROTOCOLS[kind],
        pricingModel: 'metered',
        perCallCents,
        settlementMethods: ['wallet'],
        ...extra,
      },
    });
    return { service, slug, listingId, path: `/v1/services/${vendor.slug}/${slug}/call` };
  }

  const balanceOf = async (caller: Caller) => (await json(await caller.call('GET', '/v1/wallet'))).balanceCents as number;
  const transactionsOf = async (caller: Caller) =>
    (await json(await caller.call('GET', '/v1/wallet/transactions'))).transactions as { type: string; amountCents: number }[];

  describe.each(Object.keys(PROTOCOLS) as FakeServiceKind[])('over %s', (kind) => {
    it('calls the tool, charges the per-call cost once as metered_usage, and answers the result', async () => {
      const caller = await newCaller(app);
      await fundWallet(app, caller, 1000);
      const { path, service } = await liveService(kind);
      const answer = await caller.call('POST', path, { tool: 'echo', input: { text: 'hi' } }, { 'idempotency-key': `k-${kind}` });
      expect(answer.status).toBe(200);
      const body = await json(answer);
      expect(body).toEqual({
        result: expect.any(Object),
        costCents: 25,
        walletBalanceCents: 975,
        usageRecordId: expect.any(String),
        durationMs: expect.any(Number),
      });
      expect(JSON.stringify(body.result)).toContain('hi');
      // The key sent upstream derives from the caller's: the first call's usage record id.
      expect(service.calls).toEqual([{ tool: 'echo', idempotencyKey: body.usageRecordId }]);
      expect(await balanceOf(caller)).toBe(975);
      expect((await transactionsOf(caller)).filter((t) => t.type === 'metered_usage')).toEqual([
        expect.objectContaining({ amountCents: -25 }),
      ]);

      // A retry with the key is charged nothing more and answers the same usage record; the service is not called again.
      const again = await caller.call('POST', path, { tool: 'echo', input: { text: 'hi' } }, { 'idempotency-key': `k-${kind}` });
      expect(again.status).toBe(200);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(await json(again)).toEqual(body);
      expect(service.calls).toHaveLength(1);
      expect(await balanceOf(caller)).toBe(975);
    });

    it('never sends a caller’s own Idempotency-Key upstream, so equal keys of two callers stay apart', async () => {
      const { path, service } = await liveService(kind);
      const usage: string[] = [];
      for (const caller of [await newCaller(app), await newCaller(app)]) {
        await fundWallet(app, caller, 1000);
        const answer = await caller.call('POST', path, { tool: 'echo' }, { 'idempotency-key': 'same-key' });
        usage.push((await json(answer)).usageRecordId);
      }
      expect(service.calls.map((c) => c.idempotencyKey)).toEqual(usage);
      expect(new Set(usage).size).toBe(2);
    });

    it('names a call without an Idempotency-Key upstream by its usage record, so the vendor can dedupe a resent request', async () => {
      const caller = await newCaller(app);
      await fundWallet(app, caller, 1000);
      const { path, service } = await liveService(kind);
      const answers = await Promise.all(
        ['a', 'b'].map(async (text) => json(await caller.call('POST', path, { tool: 'echo', input: { text } }))),
      );
      expect(service.calls.map((c) => c.idempotencyKey).sort()).toEqual(answers.map((a) => a.usageRecordId).sort());
    });

    it('leaves the wallet whole when the tool fails: 502 with the service message, the reservation refunded', async () => {
      const caller = await newCaller(app);
      await fundWallet(app, caller, 1000);
      const { path } = await liveService(kind);
      const answer = await caller.call('POST', path, { tool: 'fail' });
      expect(answer.status).toBe(502);
      expect((await json(answer)).message).toContain('the tool broke');
      expect(await balanceOf(caller)).toBe(1000);
      expect((await transactionsOf(caller)).map((t) => [t.type, t.amountCents])).toEqual(
        expect.arrayContaining([
          ['metered_usage', -25],
          ['refund', 25],
        ]),
      );
    });

    it('answers 504 and refunds when the service hangs past SERVICE_CALL_TIMEOUT_MS', async () => {
      const caller = await newCaller(app);
      await fundWallet(app, caller, 1000);
      const { path } = await liveService(kind);
      const answer = await caller.call('POST', path, { tool: 'hang' });
      expect(answer.status).toBe(504);
      expect(await balanceOf(caller)).toBe(1000);
    });
  });

  it.each(['https', 'jsonrpc'] as const)('refunds when a %s service drops the connection', async (kind) => {
    const caller = await newCaller(app);
    await fundWallet(app, caller, 1000);
    const { path } = await liveService(kind);
    const answer = await caller.call('POST', path, { tool: 'drop' });
    expect(answer.status).toBe(502);
    expect(await balanceOf(caller)).toBe(1000);
  });

  it('calls again under a new usage record when a call that failed is retried with its key, charging once', async () => {
    const caller = await newCaller(app);
    await fundWallet(app, caller, 1000);
    const { path, service } = await liveService('https', 25);
    const failed = await caller.call('POST', path, { tool: 'flaky' }, { 'idempotency-key': 'flaky-1' });
    expect(failed.status).toBe(502);
    const first = await json(failed);
    const retried = await caller.call('POST', path, { tool: 'flaky' }, { 'idempotency-key': 'flaky-1' });
    expect(retried.status).toBe(200);
    const answer = await json(retried);
    expect(answer.usageRecordId).not.toBe(first.usageRecordId);
    // Every attempt with the key sends the vendor the same key, so a vendor that dedupes sees one operation.
    expect(service.calls).toEqual([
      { tool: 'flaky', idempotencyKey: first.usageRecordId },
      { tool: 'flaky', idempotencyKey: first.usageRecordId },
    ]);
    const replayed = await caller.call('POST', path, { tool: 'flaky' }, { 'idempotency-key': 'flaky-1' });
    expect(await json(replayed)).toEqual(answer);
    expect(await balanceOf(caller)).toBe(975);
  });

  it('charges exactly 20 of 50 concurrent calls against a wallet that affords 20', async () => {
    const caller = await newCaller(app);
    await fundWallet(app, caller, 500);
    const { path, service } = await liveService('https', 25);
    const answers = await Promise.all(Array.from({ length: 50 }, () => caller.call('POST', path, { tool: 'echo' })));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(20);
    expect(statuses.filter((s) => s === 402)).toHaveLength(30);
    expect(service.calls).toHaveLength(20);
    expect(await balanceOf(caller)).toBe(0);
    const refused = await json(answers[statuses.indexOf(402)]);
    expect(refused).toMatchObject({ status: 'insufficient_balance' });
  });

  it('counts settled calls in the service card and keeps the trust score’s success rate current', async () => {
    const caller = await newCaller(app);
    await fundWallet(app, caller, 1000);
    const { path, listingId } = await liveService('https', 5);
    const rateStored = async () =>
      (
        await app.server.app.get(DataSource).query('SELECT service_success_rate AS rate FROM listings WHERE id = $1', [listingId])
      )[0].rate as number | null;
    const card = async () =>
      ((await json(await fetch(`${app.url}/v1/services?protocol=https&per_page=50`))).services as { id: string }[]).find(
        (s) => s.id === listingId,
      );

    expect((await caller.call('POST', path, { tool: 'echo' })).status).toBe(200);
    expect((await caller.call('POST', path, { tool: 'echo' })).status).toBe(200);
    expect(await rateStored()).toBe(1);
    expect((await caller.call('POST', path, { tool: 'fail' })).status).toBe(502);
    expect(await rateStored()).toBeCloseTo(2 / 3, 10);
    expect((await caller.call('POST', path, { tool: 'echo' })).status).toBe(200);
    expect(await rateStored()).toBe(0.75);
    expect(await card()).toMatchObject({ totalCalls: 4, successRate: '0.7500' });
  });

  it('keeps the success rate and the trust score through a rebuild of the catalog from the log', async () => {
    const caller = await newCaller(app);
    await fundWallet(app, caller, 1000);
    const { path, listingId } = await liveService('https', 5);
    for (const tool of ['echo', 'echo', 'fail', 'echo']) await caller.call('POST', path, { tool });
    const reliability = async () => {
      const [row] = await app.server.app
        .get(DataSource)
        .query('SELECT service_success_rate AS rate, trust_score AS trust FROM listings WHERE id = $1', [listingId]);
      const { services } = await json(await fetch(`${app.url}/v1/services?protocol=https&sort=trusted&per_page=50`));
      const card = (services as { id: string; successRate: string }[]).find((s) => s.id === listingId);
      return { rate: row.rate, trust: row.trust, successRate: card?.successRate };
    };
    const before = await reliability();
    expect(before).toEqual({ rate: 0.75, trust: expect.any(Number), successRate: '0.7500' });

    const printed: string[] = [];
    const code = await runProjectionsCli(
      ['rebuild', 'catalog'],
      loadConfig({ DATABASE_URL: app.db.url, LOG_LEVEL: 'silent' }),
      (line) => printed.push(line),
    );
    expect({ code, printed }).toEqual({ code: 0, printed: [expect.stringMatching(/^catalog: rebuilt and caught up/)] });
    expect(await reliability()).toEqual(before);
  });

  it('refuses a cost above maxCostCents with 402, charging nothing', async () => {
    const caller = await newCaller(app);
    await fundWallet(app, caller, 1000);
    const { path, service } = await liveService('https', 25);
    const answer = await caller.call('POST', path, { tool: 'echo', maxCostCents: 24 });
    expect(answer.status).toBe(402);
    expect((await json(answer)).message).toMatch(/maxCostCents/);
    expect(service.calls).toHaveLength(0);
    expect(await balanceOf(caller)).toBe(1000);
  });

  it('answers 402 insufficient_balance from an empty wallet; a retry with the key after a top-up executes', async () => {
    const caller = await newCaller(app);
    const { path } = await liveService('https', 25);
    const refused = await caller.call('POST', path, { tool: 'echo' }, { 'idempotency-key': 'after-top-up' });
    expect(refused.status).toBe(402);
    await fundWallet(app, caller, 500);
    const answer = await caller.call('POST', path, { tool: 'echo' }, { 'idempotency-key': 'after-top-up' });
    expect(answer.status).toBe(200);
    expect(await balanceOf(caller)).toBe(475);
  });

  it('calls free services without a wallet, and refuses unsupported protocols and settlement methods with 422', async () => {
    const caller = await newCaller(app);
    const free = await liveService('https', 0, { pricingModel: 'one_time', settlementMethods: ['free'] });
    const answer = await caller.call('POST', free.path, { tool: 'echo' });
    expect(answer.status).toBe(200);
    expect(await json(answer)).toMatchObject({ costCents: 0, walletBalanceCents: 0 });

    const a2a = await liveService('https', 5, { serviceProtocol: 'a2a', serviceTransport: null });
    const refused = await caller.call('POST', a2a.path, { tool: 'echo' });
    expect(refused.status).toBe(422);
    expect((await json(refused)).message).toMatch(/not supported yet/);

    const mpp = await liveService('https', 5, { settlementMethods: ['pay_mpp'] });
    expect((await caller.call('POST', mpp.path, { tool: 'echo' })).status).toBe(422);
  });

  it('answers 404 for an unknown service or a session that is not an open one of the caller', async () => {
    const caller = await newCaller(app);
    expect((await caller.call('POST', `/v1/services/${vendor.slug}/nope/call`, { tool: 'echo' })).status).toBe(404);
    const { path } = await liveService('https', 0, { pricingModel: 'one_time' });
    expect((await caller.call('POST', path, { tool: 'echo', sessionId: randomUUID() })).status).toBe(404);
  });

  it('validates the body: tool required, input an object', async () => {
    const caller = await newCaller(app);
    const { path } = await liveService('https');
    expect((await caller.call('POST', path, {})).status).toBe(400);
    expect((await caller.call('POST', path, { tool: 'echo', input: [1] })).status).toBe(400);
  });
});
