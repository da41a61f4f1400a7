import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { RunningServer, startServer } from '../src/bootstrap';
import { loadConfig } from '../src/config/app-config';
import { Caller, newCaller } from '../test/support/accounts';
import { TestApp } from '../test/support/app';
import { CatalogSeed } from '../test/support/catalog-seed';
import { startFakeService } from '../test/support/fake-services';
import { fundWallet } from '../test/support/wallet';

const CALLERS = 10;
const ROUNDS = 3;

/**
 * Metered-call overhead: `POST /v1/services/:vendor/:slug/call` against a
 * loopback MCP server (streamable HTTP), beside the same tool called directly
 * with the MCP SDK client (one connected client per caller), 10 concurrent
 * callers each, alternating rounds in the same run. The call route keeps
 * connected MCP clients per endpoint (no initialize per call) and reserves and
 * settles in the log, waiting for the wallet projection (read your writes),
 * so its added latency is mostly the log and the projection.
 */
export async function benchNetwork(databaseUrl: string, seconds: number) {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'svc-bench-network-'));
  const service = await startFakeService('mcp-streamable');
  let server: RunningServer | undefined;
  try {
    server = await startServer(
      loadConfig({
        DATABASE_URL: databaseUrl,
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'silent',
        RATE_LIMIT_MAX: '100000000',
        PAY_SANDBOX_AUTO_SETTLE: 'false',
        ALLOW_PRIVATE_SERVICE_ENDPOINTS: 'true',
        DATA_DIR: dataDir,
      }),
    );
    const app: TestApp = {
      url: server.url,
      server,
      db: { name: 'bench', url: databaseUrl, drop: async () => undefined },
      blobDir: path.join(dataDir, 'blobs'),
      close: () => server!.close().then(() => undefined),
    };
    const seed = await CatalogSeed.for(app);
    const vendor = await seed.vendor(`bench-net-${randomUUID().slice(0, 8)}`);
    const slug = 'bench-service';
    await seed.listing({
      vendor,
      slug,
      changes: {
        serviceEndpoint: service.url,
        serviceProtocol: 'mcp',
        serviceTransport: 'streamable_http',
        pricingModel: 'metered',
        perCallCents: 1,
        settlementMethods: ['wallet'],
      },
    });
    const callers: Caller[] = [];
    for (let i = 0; i < CALLERS; i++) {
      const caller = await newCaller(app, ['purchase']);
      await fundWallet(app, caller, 50_000);
      callers.push(caller);
    }
    const clients = await Promise.all(
      callers.map(async () => {
        const client = new Client({ name: 'bench', version: '1' });
        await client.connect(new StreamableHTTPClientTransport(new URL(service.url)));
        return client;
      }),
    );
    const direct = (i: number) => clients[i].callTool({ name: 'echo', arguments: { text: 'hi' } }).then(() => 200);
    const metered = (i: number) =>
      callers[i]
        .call('POST', `/v1/services/${vendor.slug}/${slug}/call`, { tool: 'echo', input: { text: 'hi' } })
        .then(async (r) => {
          await r.arrayBuffer();
          return r.status;
        });

    await timed(direct, 1); // warm-up
    await timed(metered, 1);
    const sides = { direct: [] as number[], metered: [] as number[] };
    const statuses: Record<string, number> = {};
    for (let round = 0; round < ROUNDS; round++) {
      sides.direct.push(...(await timed(direct, seconds / ROUNDS)).latencies);
      const run = await timed(metered, seconds / ROUNDS);
      sides.metered.push(...run.latencies);
      for (const [status, n] of Object.entries(run.statuses)) statuses[status] = (statuses[status] ?? 0) + n;
    }
    await Promise.all(clients.map((c) => c.close()));
    const directP50 = percentile(sides.direct, 50);
    const meteredP50 = percentile(sides.metered, 50);
    return {
      callers: CALLERS,
      direct: { calls: sides.direct.length, p50Ms: directP50, p99Ms: percentile(sides.direct, 99) },
      metered: { calls: sides.metered.length, p50Ms: meteredP50, p99Ms: percentile(sides.metered, 99), statuses },
      addedP50Ms: round2(meteredP50 - directP50),
      targetAddedP50Ms: 3,
    };
  } finally {
    await server?.close();
    await service.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** CALLERS loops calling back to back for `seconds`; each call's latency in ms. */
async function timed(op: (i: number) => Promise<number>, seconds: number) {
  const until = performance.now() + seconds * 1000;
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  await Promise.all(
    Array.from({ length: CALLERS }, async (_, i) => {
      while (performance.now() < until) {
        const started = performance.now();
        const status = await op(i);
        latencies.push(performance.now() - started);
        statuses[status] = (statuses[status] ?? 0) + 1;
      }
    }),
  );
  return { latencies, statuses };
}

function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return round2(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]);
}

const round2 = (n: number): number => Math.round(n * 100) / 100;
