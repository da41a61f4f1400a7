import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import * as http from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { RunningServer, startServer } from '../src/bootstrap';
import { loadConfig } from '../src/config/app-config';
import { EventStore, NewEvent, StreamAppend } from '../src/event-store/event-store';
import { trackWrites } from '../src/event-store/write-tracker';
import { ListingCommand, listingDecider, ListingEvent, listingStreamId } from '../src/modules/catalog/domain/listing.decider';
import { PurchasingEvents } from '../src/modules/purchasing/events';
import { userWallet, walletStreamId } from '../src/modules/wallet/domain/wallet-owner';
import { WalletEvents } from '../src/modules/wallet/events';
import { ProjectionWaiter } from '../src/projections/read-your-writes';
import { Caller, newCaller } from '../test/support/accounts';
import { TestApp } from '../test/support/app';
import { CatalogSeed, SeedVendor } from '../test/support/catalog-seed';
import { fundWallet } from '../test/support/wallet';

const run = promisify(execFile);

/** Concurrent HTTP clients, each a buyer of its own, and pgbench's `-c`. */
const BUYERS = 32;
const PGBENCH_THREADS = 2;
const PGBENCH_SCALE = 1;
const ROUNDS = Number(process.env.BENCH_PURCHASE_ROUNDS ?? 5);
const WARM_UP_SECONDS = 1;
/**
 * The app's pool. The budget is 45 connections in all: pgbench holds 32 while
 * the idle app still holds its pool and its fixed sessions (11 here, with
 * queues on PostgreSQL), so the pool gets what is left. Sampled and reported.
 * Here 2, 4, 8 and 10 made no difference beyond the machine's noise: a
 * purchase waits mostly for the projections to apply it (read your writes),
 * which see a commit only once the whole cluster's oldest running transaction
 * has ended, not for a connection.
 */
const POOL_MAX = Number(process.env.BENCH_PURCHASE_POOL_MAX ?? 2);
/** Small, so a top-up (at most 50000 cents) pays for hundreds of purchases. */
const PRICE_CENTS = 100;
const TOP_UP_CENTS = 50_000;
/** Listings are seeded and wallets topped up between rounds so no buyer runs short; this is the first guess of the rate. */
const GUESSED_PURCHASES_PER_SECOND = 1_000;
const LISTINGS_PER_APPEND = 50;

interface Buyer {
  caller: Caller;
  /** Listings this buyer has not yet tried to buy, in the order it will; never one twice. */
  queue: string[];
  fundedCents: number;
  /** An upper bound: every purchase tried, whatever its answer. */
  triedCents: number;
}

interface HttpSide {
  ms: number;
  /** CPU this process used meanwhile: the server and the bench's own client loop. */
  cpuMs: number;
  purchased: number;
  latencies: number[];
  /** `200 purchased`, `402 insufficient_balance`, `503`, ... */
  answers: Record<string, number>;
  ranOut: number;
}

interface PgbenchSide {
  ms: number;
  transactions: number;
  failed: number;
  /** As pgbench reports it: transactions per second without the initial connection time. */
  tps: number;
  latencies: number[];
}

interface Connections {
  app: number;
  pgbench: number;
  total: number;
}

/**
 * Wallet purchases over HTTP (`POST /v1/purchases {listingId, useWallet:true}`)
 * from 32 buyers at once, each buying listings it does not own from its own
 * funded wallet, beside pgbench's TPC-B-like script with 32 clients on the
 * same PostgreSQL: alternating rounds of the same length, the median of the
 * per-round ratios. Then the log and the read models must agree: every order
 * has its debit, and no wallet went below zero.
 */
export async function benchPurchases(adminUrl: string, databaseUrl: string, seconds: number) {
  const database = new URL(databaseUrl).pathname.slice(1);
  const pgbenchDatabase = `${database}_pgbench`;
  const pgbenchUrl = withDatabase(databaseUrl, pgbenchDatabase);
  const dataDir = await mkdtemp(path.join(tmpdir(), 'svc-bench-purchases-'));
  await admin(adminUrl, `CREATE DATABASE ${pgbenchDatabase}`);
  let server: RunningServer | undefined;
  try {
    await run('pgbench', ['-i', '-q', '-s', String(PGBENCH_SCALE), pgbenchUrl]);
    server = await startServer(
      loadConfig({
        DATABASE_URL: databaseUrl,
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'silent',
        RATE_LIMIT_MAX: '100000000',
        DATABASE_POOL_MAX: String(POOL_MAX),
        PAY_SANDBOX_AUTO_SETTLE: 'false',
        DATA_DIR: dataDir,
      }),
    );
    const app: TestApp = {
      url: server.url,
      server,
      db: { name: database, url: databaseUrl, drop: async () => undefined },
      blobDir: path.join(dataDir, 'blobs'),
      close: () => server!.close().then(() => undefined),
    };
    const dataSource = server.app.get(DataSource);
    const countConnections = async (): Promise<Connections> => {
      const [row] = await dataSource.query(
        `SELECT count(*) FILTER (WHERE datname = $1)::int AS app, count(*) FILTER (WHERE datname = $2)::int AS pgbench
           FROM pg_stat_activity`,
        [app.db.name, pgbenchDatabase],
      );
      return { app: row.app, pgbench: row.pgbench, total: row.app + row.pgbench };
    };

    // Other tenants of this machine and of this PostgreSQL server move both sides; this says how busy it was.
    const loadAverageAtStart = round2(loadavg()[0]);
    let started = Date.now();
    const seed = await CatalogSeed.for(app);
    const vendor = await seed.vendor(`bench-vendor-${randomUUID().slice(0, 8)}`);
    const buyers: Buyer[] = [];
    for (let i = 0; i < BUYERS; i += 4) {
      const callers = await Promise.all(Array.from({ length: Math.min(4, BUYERS - i) }, () => newCaller(app, ['purchase'])));
      for (const caller of callers) buyers.push({ caller, queue: [], fundedCents: 0, triedCents: 0 });
    }
    const stock = new Stock(app, vendor, buyers);
    const idleConnections = await countConnections();
    await stock.ensure(Math.ceil((GUESSED_PURCHASES_PER_SECOND * (WARM_UP_SECONDS + seconds) * 1.5) / BUYERS));
    const setupSeconds = round1((Date.now() - started) / 1000);

    const agent = new http.Agent({ keepAlive: true, maxSockets: BUYERS });
    const peak = { http: { app: 0, pgbench: 0, total: 0 }, pgbench: { app: 0, pgbench: 0, total: 0 } };
    const sampled = async <T>(side: keyof typeof peak, work: () => Promise<T>): Promise<T> => {
      let done = false;
      const sampler = (async () => {
        while (!done) {
          const now = await countConnections();
          for (const key of ['app', 'pgbench', 'total'] as const) peak[side][key] = Math.max(peak[side][key], now[key]);
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
      })();
      try {
        return await work();
      } finally {
        done = true;
        await sampler;
      }
    };
    const purchases = (ms: number) => sampled('http', () => purchaseRound(server!.url, agent, buyers, ms));
    const pgbench = (s: number) => sampled('pgbench', () => pgbenchRound(pgbenchUrl, s, dataDir));

    const warmUp = await purchases(WARM_UP_SECONDS * 1000);
    await pgbench(WARM_UP_SECONDS);
    let fastest = (warmUp.purchased * 1000) / warmUp.ms;
    const ratios: number[] = [];
    const rounds: { purchasesPerSecond: number; pgbenchTps: number; ratio: number }[] = [];
    const totals = { http: emptyHttpSide(), pgbench: emptyPgbenchSide() };
    started = Date.now();
    for (let round = 0; round < ROUNDS; round++) {
      // Not timed: enough listings and money for half as fast again as the fastest round so far.
      await stock.ensure(Math.ceil((Math.max(fastest, 1) * seconds * 1.5) / BUYERS) + 10);
      // Each side goes first in every other round, so a trend in the machine's load hits both alike.
      const httpFirst = round % 2 === 0;
      let httpRound: HttpSide;
      let pgbenchRoundResult: PgbenchSide;
      if (httpFirst) {
        httpRound = await purchases(seconds * 1000);
        pgbenchRoundResult = await pgbench(seconds);
      } else {
        pgbenchRoundResult = await pgbench(seconds);
        httpRound = await purchases(seconds * 1000);
      }
      const perSecond = (httpRound.purchased * 1000) / httpRound.ms;
      fastest = Math.max(fastest, perSecond);
      ratios.push(perSecond / pgbenchRoundResult.tps);
      rounds.push({
        purchasesPerSecond: Math.round(perSecond),
        pgbenchTps: Math.round(pgbenchRoundResult.tps),
        ratio: round2(perSecond / pgbenchRoundResult.tps),
      });
      addHttp(totals.http, httpRound);
      addPgbench(totals.pgbench, pgbenchRoundResult);
    }
    const roundsSeconds = round1((Date.now() - started) / 1000);
    agent.destroy();

    const correctness = await checkMoney(dataSource, buyers, warmUp.purchased + totals.http.purchased);
    const httpLatencies = sorted(totals.http.latencies);
    const pgbenchLatencies = sorted(totals.pgbench.latencies);
    const pgbenchTps = totals.pgbench.tps / ROUNDS;
    const purchasesPerSecond = (totals.http.purchased * 1000) / totals.http.ms;
    const p99 = percentile(httpLatencies, 0.99);
    const ratio = median(ratios);
    return {
      buyers: BUYERS,
      priceCents: PRICE_CENTS,
      databasePoolMax: POOL_MAX,
      roundSeconds: seconds,
      rounds: ROUNDS,
      loadAverageAtStart,
      setupSeconds,
      roundsSeconds,
      listingsSeeded: stock.listings,
      http: {
        purchases: totals.http.purchased,
        purchasesPerSecond: Math.round(purchasesPerSecond),
        latencyMs: latencyFigures(httpLatencies),
        answers: totals.http.answers,
        non200: Object.entries(totals.http.answers)
          .filter(([answer]) => !answer.startsWith('200 '))
          .reduce((sum, [, n]) => sum + n, 0),
        notPurchased: Object.entries(totals.http.answers)
          .filter(([answer]) => answer !== '200 purchased')
          .reduce((sum, [, n]) => sum + n, 0),
        buyersOutOfListings: totals.http.ranOut,
        // The server and this client loop share the process: a busy core means Node, not PostgreSQL, sets the pace.
        processCpuCores: round2(totals.http.cpuMs / totals.http.ms),
        processCpuMsPerPurchase: round2(totals.http.cpuMs / totals.http.purchased),
      },
      pgbench: {
        clients: BUYERS,
        threads: PGBENCH_THREADS,
        scale: PGBENCH_SCALE,
        transactions: totals.pgbench.transactions,
        failed: totals.pgbench.failed,
        tps: Math.round(pgbenchTps),
        latencyMs: latencyFigures(pgbenchLatencies),
      },
      ratio: round2(ratio),
      ratioPerRound: ratios.map(round2),
      perRound: rounds,
      connections: { idleApp: idleConnections.app, peakDuringPurchases: peak.http, peakDuringPgbench: peak.pgbench },
      correctness,
      target: 'ratio >= 0.5 (median of the rounds, purchases/s over pgbench tps) and p99 < 50 ms',
      met: { ratio: ratio >= 0.5, p99: p99 < 50 },
    };
  } finally {
    await server?.close();
    await admin(adminUrl, `DROP DATABASE IF EXISTS ${pgbenchDatabase} WITH (FORCE)`);
    await rm(dataDir, { recursive: true, force: true });
  }
}

/**
 * The listings every buyer may still buy, and the money to buy them: seeded
 * and topped up between rounds, never during one.
 */
class Stock {
  listings = 0;
  private readonly store: EventStore;
  private readonly waiter: ProjectionWaiter;

  constructor(
    private readonly app: TestApp,
    private readonly vendor: SeedVendor,
    private readonly buyers: Buyer[],
  ) {
    this.store = app.server.app.get(EventStore);
    this.waiter = app.server.app.get(ProjectionWaiter);
  }

  /** At least `perBuyer` listings left to each buyer, and the money for them. */
  async ensure(perBuyer: number): Promise<void> {
    const shortest = Math.min(...this.buyers.map((buyer) => buyer.queue.length));
    if (shortest < perBuyer) {
      const fresh = await this.seedListings(perBuyer - shortest);
      // Every buyer gets every new listing, each starting at another place, so buyers spread over the listings.
      this.buyers.forEach((buyer, i) => {
        const offset = Math.floor((i * fresh.length) / this.buyers.length);
        buyer.queue.push(...fresh.slice(offset), ...fresh.slice(0, offset));
      });
    }
    for (let i = 0; i < this.buyers.length; i += 4)
      await Promise.all(this.buyers.slice(i, i + 4).map((buyer) => this.fund(buyer, perBuyer * PRICE_CENTS)));
  }

  private async fund(buyer: Buyer, neededCents: number): Promise<void> {
    while (buyer.fundedCents - buyer.triedCents < neededCents) {
      // Through the sandbox, as a buyer would: the top-up, its processor's signed webhook, the credit.
      await fundWallet(this.app, buyer.caller, TOP_UP_CENTS);
      buyer.fundedCents += TOP_UP_CENTS;
    }
  }

  /**
   * Paid, published listings, written to the log as an upload, a passing scan
   * and a publish would write them (through the listing decider), many to an
   * append; then waits for the projections.
   */
  private async seedListings(count: number): Promise<string[]> {
    const ids: string[] = [];
    const { lastPosition, eventTypes } = await trackWrites(async () => {
      for (let from = 0; from < count; from += LISTINGS_PER_APPEND) {
        const appends: StreamAppend[] = [];
        for (let i = from; i < Math.min(count, from + LISTINGS_PER_APPEND); i++) {
          const listingId = randomUUID();
          appends.push({ streamId: listingStreamId(listingId), events: this.listingEvents(listingId), expected: 'no_stream' });
          ids.push(listingId);
        }
        await this.store.appendAtomically(appends);
      }
    });
    if (lastPosition && !(await this.waiter.waitFor(lastPosition, eventTypes, 60_000)))
      throw new Error('the projections did not catch up with the seeded listings');
    this.listings += ids.length;
    return ids;
  }

  private listingEvents(listingId: string): NewEvent[] {
    const releaseId = randomUUID();
    const slug = `bench-${listingId.slice(0, 13)}`;
    const now = new Date();
    const commands: ListingCommand[] = [
      {
        type: 'UploadRelease',
        listingId,
        vendorId: this.vendor.id,
        slug,
        releaseId,
        content: {
          version: '1.0.0',
          type: 'skill',
          title: `Bench ${slug}`,
          description: 'A paid listing for the purchases benchmark.',
          tags: [],
          targets: ['claude-code'],
          tools: [],
          readmeMd: null,
        },
        archiveSha256: 'b'.repeat(64),
        sizeBytes: 1000,
        priceCents: PRICE_CENTS,
        signedWith: null,
        now,
      },
      {
        type: 'RecordScan',
        releaseId,
        now,
        outcome: {
          status: 'passed',
          label: 'clean',
          qualityScore: 70,
          findings: [],
          checks: [{ check: 'paths', ok: true }],
          promptGuard: { ran: true, verified: true, perFile: [] },
        },
      },
      { type: 'PublishRelease', vendorId: this.vendor.id, releaseId, now },
    ];
    let state = listingDecider.initialState;
    const events: ListingEvent[] = [];
    for (const command of commands) {
      const decided = listingDecider.decide(command, state);
      state = decided.reduce(listingDecider.evolve, state);
      events.push(...decided);
    }
    if (!state.exists || state.status === 'draft' || state.priceCents !== PRICE_CENTS)
      throw new Error('a seeded listing is not published at its price');
    return events as unknown as NewEvent[];
  }
}

/** Every buyer at once, one purchase in flight each, until the deadline; the last answers are waited for. */
async function purchaseRound(baseUrl: string, agent: http.Agent, buyers: Buyer[], durationMs: number): Promise<HttpSide> {
  const url = new URL('/v1/purchases', baseUrl);
  const side = emptyHttpSide();
  const started = Date.now();
  const deadline = started + durationMs;
  const cpu = process.cpuUsage();
  await Promise.all(
    buyers.map(async (buyer) => {
      while (Date.now() < deadline) {
        const listingId = buyer.queue.shift();
        if (!listingId) {
          side.ranOut++;
          return;
        }
        buyer.triedCents += PRICE_CENTS;
        const t0 = process.hrtime.bigint();
        let answer: string;
        try {
          const { status, body } = await post(agent, url, buyer.caller.token, { listingId, useWallet: true });
          answer = `${status} ${describe(body)}`;
        } catch (error) {
          answer = `no answer: ${(error as NodeJS.ErrnoException).code ?? String(error)}`;
        }
        side.latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
        side.answers[answer] = (side.answers[answer] ?? 0) + 1;
        if (answer === '200 purchased') side.purchased++;
      }
    }),
  );
  side.ms = Date.now() - started;
  const used = process.cpuUsage(cpu);
  side.cpuMs = (used.user + used.system) / 1000;
  return side;
}

function describe(body: string): string {
  try {
    const parsed = JSON.parse(body) as { status?: string; message?: string };
    return parsed.status ?? parsed.message ?? 'no status';
  } catch {
    return 'not JSON';
  }
}

function post(agent: http.Agent, url: URL, token: string, body: unknown): Promise<{ status: number; body: string }> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      {
        method: 'POST',
        agent,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}

/** pgbench's default (TPC-B-like) script for `seconds`, each transaction's latency read from its log. */
async function pgbenchRound(url: string, seconds: number, dir: string): Promise<PgbenchSide> {
  const prefix = path.join(dir, `pgbench-${randomUUID().slice(0, 8)}`);
  const started = Date.now();
  const { stdout } = await run('pgbench', [
    '-c',
    String(BUYERS),
    '-j',
    String(PGBENCH_THREADS),
    '-T',
    String(seconds),
    '-l',
    `--log-prefix=${prefix}`,
    url,
  ]);
  const ms = Date.now() - started;
  const figure = (pattern: RegExp) => {
    const match = pattern.exec(stdout);
    if (!match) throw new Error(`pgbench printed no ${pattern}:\n${stdout}`);
    return Number(match[1]);
  };
  const latencies: number[] = [];
  for (const file of await readdir(dir)) {
    if (!file.startsWith(path.basename(prefix))) continue;
    const log = await readFile(path.join(dir, file), 'utf8');
    // client_id transaction_no time(us) script_no time_epoch time_us
    for (const line of log.split('\n')) if (line) latencies.push(Number(line.split(' ')[2]) / 1000);
    await rm(path.join(dir, file));
  }
  return {
    ms,
    transactions: figure(/number of transactions actually processed: (\d+)/),
    failed: figure(/number of failed transactions: (\d+)/),
    tps: figure(/tps = ([\d.]+) \(without initial connection time\)/),
    latencies,
  };
}

/**
 * From the log, the source of truth: every order of these buyers has the
 * wallet debit of its amount and every debit its order, no balance a wallet
 * ever had is below zero, and there are as many orders as answers `purchased`.
 * From the read models: orders and wallet transactions agree, and no wallet shows a negative balance.
 */
async function checkMoney(dataSource: DataSource, buyers: Buyer[], purchasedAnswers: number) {
  const userIds = buyers.map((buyer) => buyer.caller.userId);
  const wallets = userIds.map((id) => walletStreamId(userWallet(id)));
  const [log] = await dataSource.query(
    `WITH orders AS (
       SELECT data->>'orderId' AS order_id, (data->>'amountCents')::bigint AS amount FROM events
        WHERE type = $1 AND data->>'userId' = ANY($3) AND data->>'fundingSource' = 'wallet'
     ), debits AS (
       SELECT data->'reference'->>'orderId' AS order_id, -(data->>'amountCents')::bigint AS amount FROM events
        WHERE type = $2 AND stream_id = ANY($4) AND data->>'reason' = 'purchase'
     )
     SELECT (SELECT count(*) FROM orders)::int AS orders,
            (SELECT coalesce(sum(amount), 0) FROM orders)::bigint AS "ordersCents",
            (SELECT count(*) FROM debits)::int AS debits,
            (SELECT coalesce(sum(amount), 0) FROM debits)::bigint AS "debitsCents",
            (SELECT count(*) FROM orders o FULL JOIN debits d USING (order_id)
              WHERE o.order_id IS NULL OR d.order_id IS NULL OR o.amount <> d.amount)::int AS unmatched,
            (SELECT min((data->>'balanceAfterCents')::bigint) FROM events
              WHERE stream_id = ANY($4) AND data ? 'balanceAfterCents')::bigint AS "lowestBalanceCents"`,
    [PurchasingEvents.PurchaseMade, WalletEvents.WalletDebited, userIds, wallets],
  );
  const [readModels] = await dataSource.query(
    `SELECT (SELECT coalesce(sum(amount_cents), 0) FROM orders WHERE user_id = ANY($1::uuid[]))::bigint AS "ordersCents",
            (SELECT coalesce(-sum(amount_cents), 0) FROM wallet_transactions
              WHERE owner_kind = 'user' AND owner_id = ANY($2) AND amount_cents < 0)::bigint AS "debitsCents",
            (SELECT min(balance_cents) FROM wallets WHERE owner_kind = 'user' AND owner_id = ANY($2))::bigint AS "lowestBalanceCents"`,
    [userIds, userIds],
  );
  const toNumbers = (row: Record<string, string | number | null>) =>
    Object.fromEntries(Object.entries(row).map(([key, value]) => [key, value === null ? null : Number(value)]));
  const fromLog = toNumbers(log);
  const fromReadModels = toNumbers(readModels);
  return {
    purchasedAnswers,
    log: fromLog,
    readModels: fromReadModels,
    ok:
      fromLog.orders === purchasedAnswers &&
      fromLog.orders === fromLog.debits &&
      fromLog.ordersCents === fromLog.debitsCents &&
      fromLog.unmatched === 0 &&
      (fromLog.lowestBalanceCents ?? 0) >= 0 &&
      fromReadModels.ordersCents === fromLog.ordersCents &&
      fromReadModels.debitsCents === fromLog.debitsCents &&
      (fromReadModels.lowestBalanceCents ?? 0) >= 0,
  };
}

async function admin(url: string, sql: string): Promise<void> {
  const client = new Client({ connectionString: url });
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

function latencyFigures(sortedMs: number[]) {
  return {
    p50: round2(percentile(sortedMs, 0.5)),
    p99: round2(percentile(sortedMs, 0.99)),
    max: round2(sortedMs[sortedMs.length - 1] ?? NaN),
  };
}

function emptyHttpSide(): HttpSide {
  return { ms: 0, cpuMs: 0, purchased: 0, latencies: [], answers: {}, ranOut: 0 };
}

function emptyPgbenchSide(): PgbenchSide {
  return { ms: 0, transactions: 0, failed: 0, tps: 0, latencies: [] };
}

function addHttp(total: HttpSide, round: HttpSide): void {
  total.ms += round.ms;
  total.cpuMs += round.cpuMs;
  total.purchased += round.purchased;
  total.ranOut += round.ranOut;
  for (const [answer, n] of Object.entries(round.answers)) total.answers[answer] = (total.answers[answer] ?? 0) + n;
  for (const latency of round.latencies) total.latencies.push(latency);
}

function addPgbench(total: PgbenchSide, round: PgbenchSide): void {
  total.ms += round.ms;
  total.transactions += round.transactions;
  total.failed += round.failed;
  total.tps += round.tps;
  for (const latency of round.latencies) total.latencies.push(latency);
}

function sorted(values: number[]): number[] {
  return [...values].sort((a, b) => a - b);
}

function percentile(sortedValues: number[], p: number): number {
  return sortedValues[Math.max(0, Math.ceil(p * sortedValues.length) - 1)] ?? NaN;
}

function median(values: number[]): number {
  const ordered = sorted(values);
  return ordered[Math.floor(ordered.length / 2)];
}

function round1(n: number): number {
  return Math.round(n * 10) / 10;
}

function round2(n: number): number {
  return Math.round(n * 100) / 100;
}
