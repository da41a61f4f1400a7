import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { Client, Pool } from 'pg';
import { DataSource } from 'typeorm';
import { startServer } from '../src/bootstrap';
import { loadConfig } from '../src/config/app-config';
import { EventStore } from '../src/event-store/event-store';
import { LogPosition } from '../src/event-store/log-position';
import { PersonalDataVault } from '../src/event-store/personal-data/personal-data-vault';
import { PostgresEventStore } from '../src/event-store/postgres/postgres-event-store';
import { ReadingEventStore } from '../src/event-store/reading-event-store';
import { dataSourceOptions } from '../src/platform/database/database.module';
import { migrate } from '../src/platform/database/migrate';
import { benchLedger } from './ledger';
import { benchNetwork } from './network';
import { benchPurchases } from './purchases';
import { benchSearch, seedCatalogue } from './search';
import { benchWallet } from './wallet';

/**
 * `npm run bench`: prints JSON. Every figure stands beside a baseline measured
 * in the same run on the same machine, because this machine is shared and noisy.
 */
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const WRITERS = 16;
const STREAMS = 1_000;
const ROUND_MS = Number(process.env.BENCH_ROUND_MS ?? 3_000);
const ROUNDS = 5;
const HTTP_SECONDS = Number(process.env.BENCH_HTTP_SECONDS ?? 5);
/** `BENCH_ONLY=search,health` runs a subset: appends, catchup, health, search, search-cold, wallet, purchases, ledger, network. */
const ONLY = process.env.BENCH_ONLY?.split(',').map((s) => s.trim().toLowerCase());
const selected = (name: string) => !ONLY || ONLY.includes(name);

async function main(): Promise<void> {
  const name = `svc_bench_${Date.now().toString(36)}`;
  const url = withDatabase(ADMIN_URL, name);
  await admin(`CREATE DATABASE ${name}`);
  try {
    const dataSource = await new DataSource(dataSourceOptions(url)).initialize();
    await migrate(dataSource);
    await dataSource.destroy();
    const pool = new Pool({ connectionString: url, max: WRITERS + 4 });
    const report: Record<string, unknown> = { machine: { cpus: require('node:os').cpus().length, node: process.version } };
    if (selected('appends')) report.appends = await benchAppends(pool);
    if (selected('catchup')) report.catchUp = await benchCatchUp(pool);
    if (selected('health')) report.health = await benchHealth(url);
    if (selected('search') || selected('search-cold'))
      report.search = await benchSearchWithSeed(pool, url, { cached: selected('search'), cold: selected('search-cold') });
    if (selected('wallet')) report.wallet = await benchWallet(pool);
    if (selected('ledger')) report.ledger = await benchLedger(pool, url);
    await pool.end();
    // After the pool above is closed: pgbench's 32 clients and the app's sessions must fit the connection budget.
    if (selected('purchases')) report.purchases = await benchPurchases(ADMIN_URL, url, HTTP_SECONDS);
    if (selected('network')) report.network = await benchNetwork(url, HTTP_SECONDS);
    console.log(JSON.stringify(report, null, 2));
  } finally {
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
}

/** Event store appends beside bare single-row INSERT commits, same concurrency, alternating rounds. */
async function benchAppends(pool: Pool) {
  await pool.query('CREATE TABLE bench_plain (id bigserial PRIMARY KEY, stream_id text NOT NULL, data jsonb NOT NULL)');
  const store = new PostgresEventStore(pool);
  const streams = Array.from({ length: STREAMS }, () => `bench-${randomUUID()}`);
  const pick = () => streams[Math.floor(Math.random() * STREAMS)];
  const data = { amountCents: 1250, note: 'benchmark payload of a typical size' };

  const plain = () =>
    pool.query('INSERT INTO bench_plain (stream_id, data) VALUES ($1, $2)', [pick(), data]).then(() => undefined);
  const append = () => store.append(pick(), [{ type: 'BenchmarkEvent', data }], 'any').then(() => undefined);

  await concurrently(plain, 1_000); // warm-up
  await concurrently(append, 1_000);
  // Alternating pairs of rounds; the median of the per-pair ratios shrugs off a burst of load
  // from other tenants of this machine hitting one side of one pair.
  const ratios: number[] = [];
  const totals = { plain: { ops: 0, ms: 0 }, store: { ops: 0, ms: 0 } };
  for (let round = 0; round < ROUNDS; round++) {
    const plainRound = await concurrently(plain, ROUND_MS);
    const storeRound = await concurrently(append, ROUND_MS);
    ratios.push(storeRound.ops / storeRound.ms / (plainRound.ops / plainRound.ms));
    for (const [total, result] of [
      [totals.plain, plainRound],
      [totals.store, storeRound],
    ] as const) {
      total.ops += result.ops;
      total.ms += result.ms;
    }
  }
  await store.close();
  // How many appends shared each commit (group commit), so the ratio can be read for what it is.
  const { rows: grouping } = await pool.query(
    `SELECT count(*)::float / count(DISTINCT transaction_id) AS per_commit FROM events WHERE type = 'BenchmarkEvent'`,
  );
  const plainPerSecond = (totals.plain.ops * 1000) / totals.plain.ms;
  const storePerSecond = (totals.store.ops * 1000) / totals.store.ms;
  return {
    writers: WRITERS,
    streams: STREAMS,
    eventStoreAppendsPerSecond: Math.round(storePerSecond),
    plainInsertCommitsPerSecond: Math.round(plainPerSecond),
    ratio: round2(median(ratios)),
    ratioPerRound: ratios.map(round2),
    appendsPerCommit: round2(grouping[0].per_commit),
    target: 'ratio >= 0.7 (median of the rounds)',
  };
}

/** Reads the whole log as a projection does (through the reading facade), in batches. */
async function benchCatchUp(pool: Pool) {
  const adapter = new PostgresEventStore(pool);
  const store: EventStore = new ReadingEventStore(adapter, new PersonalDataVault(pool));
  // Top the log up so the figure is not dominated by start-up.
  const { rows } = await pool.query('SELECT count(*)::int AS n FROM events');
  for (let have = rows[0].n; have < 200_000; have += 1_000) {
    await pool.query(
      `INSERT INTO events (event_id, stream_id, revision, type, data, metadata)
       SELECT gen_random_uuid(), 'bulk-' || $1 || '-' || g, 0, 'BenchmarkEvent',
              '{"amountCents": 1250, "note": "benchmark payload of a typical size"}', '{"schemaVersion": 1, "occurredAt": "2026-01-01T00:00:00Z"}'
         FROM generate_series(1, 1000) g`,
      [have],
    );
  }
  const results = [];
  for (const batchSize of [500, 2_000]) {
    const started = process.hrtime.bigint();
    let after: LogPosition | undefined;
    let events = 0;
    for (;;) {
      const page = await store.readAll({ after, maxCount: batchSize });
      if (page.length === 0) break;
      events += page.length;
      after = page[page.length - 1].position;
    }
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    results.push({ batchSize, events, seconds: round2(seconds), eventsPerSecond: Math.round(events / seconds) });
  }
  await adapter.close();
  return { runs: results, target: 'at least 50,000 events/s' };
}

/** GET /health through the whole app beside a bare Fastify hello-world. */
async function benchHealth(url: string) {
  const hello = Fastify();
  hello.get('/', async () => ({ hello: 'world' }));
  await hello.listen({ port: 0, host: '127.0.0.1' });
  const helloUrl = `http://127.0.0.1:${(hello.server.address() as { port: number }).port}/`;
  const server = await startServer(
    loadConfig({ DATABASE_URL: url, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', RATE_LIMIT_MAX: '100000000' }),
  );
  try {
    await load(helloUrl, 1); // warm-up
    await load(`${server.url}/health`, 1);
    const bare = await load(helloUrl, HTTP_SECONDS);
    const health = await load(`${server.url}/health`, HTTP_SECONDS);
    return {
      connections: 10,
      healthRequestsPerSecond: Math.round(health.requests.average),
      healthLatencyMs: { p50: health.latency.p50, p99: health.latency.p99 },
      bareFastifyRequestsPerSecond: Math.round(bare.requests.average),
      ratio: round2(health.requests.average / bare.requests.average),
      non2xx: health.non2xx,
    };
  } finally {
    await server.close();
    await hello.close();
  }
}

/** 100,000 seeded listings; search beside the hello-world. */
async function benchSearchWithSeed(pool: Pool, url: string, parts: { cached: boolean; cold: boolean }) {
  const started = Date.now();
  await seedCatalogue(pool);
  const seedSeconds = Math.round((Date.now() - started) / 100) / 10;
  const hello = Fastify();
  hello.get('/', async () => ({ hello: 'world' }));
  await hello.listen({ port: 0, host: '127.0.0.1' });
  try {
    const helloUrl = `http://127.0.0.1:${(hello.server.address() as { port: number }).port}`;
    return { seedSeconds, ...(await benchSearch(url, helloUrl, HTTP_SECONDS, parts)) };
  } finally {
    await hello.close();
  }
}

async function concurrently(op: () => Promise<void>, durationMs: number): Promise<{ ops: number; ms: number }> {
  const started = Date.now();
  const deadline = started + durationMs;
  let ops = 0;
  await Promise.all(
    Array.from({ length: WRITERS }, async () => {
      while (Date.now() < deadline) {
        await op();
        ops++;
      }
    }),
  );
  return { ops, ms: Date.now() - started };
}

function load(url: string, seconds: number): Promise<autocannon.Result> {
  return autocannon({ url, connections: 10, duration: seconds });
}

async function admin(sql: string): Promise<void> {
  const client = new Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

function withDatabase(base: string, name: string): string {
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function round2(n: number): number {
  return Math.round(n * 100) / 100;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
