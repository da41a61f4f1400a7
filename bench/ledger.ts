import { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { EventStore, LogPosition } from '../src/event-store/event-store';
import { PersonalDataVault } from '../src/event-store/personal-data/personal-data-vault';
import { PostgresEventStore } from '../src/event-store/postgres/postgres-event-store';
import { ReadingEventStore } from '../src/event-store/reading-event-store';
import { reconcile } from '../src/ledger/reconcile';
import { PaymentGateway, SucceededPaymentIntent } from '../src/modules/billing/domain/payment-gateway';
import { dataSourceOptions } from '../src/platform/database/database.module';

const EVENTS = Number(process.env.BENCH_LEDGER_EVENTS ?? 1_000_000);
const WALLETS = 1_000;
const VENDORS = 10;
const SEED_BATCH = 50_000;
/** Alternating rounds; the median ratio shrugs off another tenant's burst of load on one side of one round. */
const ROUNDS = 3;

/**
 * `ledger reconcile` over a log of EVENTS money events (two thirds wallet events,
 * a top-up then a wallet purchase by turns, a third the purchases' orders),
 * beside the catch-up read rate of the same log in the same run. The read
 * models are filled to agree, and the processor answers every top-up's
 * intent, so the run is a clean one: all checks, no findings.
 */
export async function benchLedger(pool: Pool, url: string) {
  const started = Date.now();
  await seed(pool);
  const seedSeconds = round1((Date.now() - started) / 1000);
  const { rows } = await pool.query(
    `SELECT count(*)::int AS n FROM events WHERE type IN ('WalletToppedUp', 'WalletDebited', 'PurchaseMade')`,
  );
  const moneyEvents: number = rows[0].n;

  const adapter = new PostgresEventStore(pool);
  const store: EventStore = new ReadingEventStore(adapter, new PersonalDataVault(pool));
  const intents = await processorIntents(pool);
  const gateway = { listSucceededPaymentIntents: async () => intents } as unknown as PaymentGateway;
  const db = await new DataSource(dataSourceOptions(url)).initialize();
  try {
    const catchUp = await catchUpRate(store); // warm-up, then measured by turns with reconcile
    const runs: Array<{ catchUpEventsPerSecond: number; reconcileEventsPerSecond: number; ratio: number }> = [];
    let findings = -1;
    let logEvents = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const read = await catchUpRate(store);
      const t0 = process.hrtime.bigint();
      const report = await reconcile(store, db, gateway, {});
      const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
      findings = report.findings.length;
      logEvents = report.eventsRead;
      const reconcileRate = report.eventsRead / seconds;
      runs.push({
        catchUpEventsPerSecond: Math.round(read.eventsPerSecond),
        reconcileEventsPerSecond: Math.round(reconcileRate),
        ratio: Math.round((reconcileRate / read.eventsPerSecond) * 100) / 100,
      });
    }
    return {
      moneyEvents,
      logEvents,
      seedSeconds,
      warmUpCatchUpEventsPerSecond: Math.round(catchUp.eventsPerSecond),
      runs,
      ratio: runs.map((run) => run.ratio).sort((a, b) => a - b)[Math.floor(runs.length / 2)],
      findings,
      target: 'reconcile at least half the catch-up rate (median ratio >= 0.5)',
    };
  } finally {
    await db.destroy();
    await adapter.close();
  }
}

async function catchUpRate(store: EventStore): Promise<{ events: number; eventsPerSecond: number }> {
  const t0 = process.hrtime.bigint();
  let after: LogPosition | undefined;
  let events = 0;
  for (;;) {
    const page = await store.readAll({ after, maxCount: 2_000 });
    if (page.length === 0) break;
    events += page.length;
    after = page[page.length - 1].position;
  }
  return { events, eventsPerSecond: events / (Number(process.hrtime.bigint() - t0) / 1e9) };
}

/** Wallet w, revision r: a top-up of 20.00 at even revisions, a purchase of 10.00 at odd ones (and its order). */
async function seed(pool: Pool): Promise<void> {
  // Two wallet events make one order: two thirds of the log are wallet events.
  const perWallet = Math.ceil((EVENTS * 2) / 3 / WALLETS);
  const meta = `jsonb_build_object('schemaVersion', 1, 'occurredAt', '2026-11-01T00:00:00Z')`;
  for (let from = 0; from < perWallet; from += Math.max(1, Math.floor(SEED_BATCH / WALLETS))) {
    const to = Math.min(perWallet, from + Math.max(1, Math.floor(SEED_BATCH / WALLETS))) - 1;
    await pool.query(
      `WITH s AS (
         SELECT w, r, md5('bench-wallet-' || w)::uuid AS owner, (floor(r / 2) + 1) * 2000 - floor((r + 1) / 2) * 1000 AS balance
           FROM generate_series(0, ${WALLETS - 1}) w, generate_series(${from}, ${to}) r)
       INSERT INTO events (event_id, stream_id, revision, type, data, metadata)
       SELECT md5('bench-event-' || w || '-' || r)::uuid, 'wallet-user-' || owner, r,
              CASE WHEN r % 2 = 0 THEN 'WalletToppedUp' ELSE 'WalletDebited' END,
              CASE WHEN r % 2 = 0
                THEN jsonb_build_object('topUpId', md5('bench-top-up-' || w || '-' || r)::uuid, 'paymentIntentId', 'pi_bench_' || w || '_' || r,
                       'source', 'top_up', 'amountCents', 2000, 'balanceAfterCents', balance, 'toppedUpAt', '2026-11-01T00:00:00Z')
                ELSE jsonb_build_object('debitId', md5('bench-debit-' || w || '-' || r)::uuid, 'reason', 'purchase', 'description', 'Kit',
                       'amountCents', -1000, 'balanceAfterCents', balance, 'reference', jsonb_build_object('orderId', md5('bench-order-' || w || '-' || r)::uuid),
                       'debitedAt', '2026-11-01T00:00:00Z')
              END, ${meta}
         FROM s`,
    );
    await pool.query(
      `WITH s AS (SELECT w, r, md5('bench-wallet-' || w)::uuid AS owner, md5('bench-order-' || w || '-' || r)::uuid AS order_id
                    FROM generate_series(0, ${WALLETS - 1}) w, generate_series(${from}, ${to}) r WHERE r % 2 = 1)
       INSERT INTO events (event_id, stream_id, revision, type, data, metadata)
       SELECT md5('bench-made-' || order_id)::uuid, 'order-' || order_id, 0, 'PurchaseMade',
              jsonb_build_object('orderId', order_id, 'buyer', jsonb_build_object('kind', 'user', 'id', owner), 'userId', owner,
                'listingId', md5('bench-listing')::uuid, 'releaseId', md5('bench-release')::uuid, 'version', '1.0.0',
                'vendorId', md5('bench-vendor-' || (w % ${VENDORS}))::uuid, 'vendorSlug', 'vendor', 'vendorName', 'Vendor',
                'listingSlug', 'kit', 'listingTitle', 'Kit', 'listingType', 'skill', 'amountCents', 1000, 'platformFeeCents', 150,
                'vendorNetCents', 850, 'fundingSource', 'wallet', 'status', 'paid', 'paymentIntentId', null, 'channel', 'api',
                'madeAt', '2026-11-01T00:00:00Z'), ${meta}
         FROM s`,
    );
  }
  // The read models as the projections would leave them, so the reconcile is clean.
  await pool.query(
    `INSERT INTO wallets (owner_kind, owner_id, balance_cents, auto_top_up_threshold_cents, auto_top_up_amount_cents, updated_at)
     SELECT 'user', substr(stream_id, 13), sum((data->>'amountCents')::bigint), 500, 2000, now()
       FROM events WHERE type IN ('WalletToppedUp', 'WalletDebited') AND stream_id LIKE 'wallet-user-%' GROUP BY stream_id`,
  );
  await pool.query(
    `INSERT INTO orders (id, buyer_kind, buyer_id, user_id, listing_id, release_id, version, vendor_id, vendor_slug, vendor_name,
                         listing_slug, listing_title, amount_cents, platform_fee_cents, vendor_net_cents, status, funding_source,
                         payment_intent_id, channel, created_at)
     SELECT (data->>'orderId')::uuid, 'user', data->>'userId', (data->>'userId')::uuid, (data->>'listingId')::uuid,
            (data->>'releaseId')::uuid, '1.0.0', (data->>'vendorId')::uuid, 'vendor', 'Vendor', 'kit', 'Kit', 1000, 150, 850,
            'paid', 'wallet', null, 'api', now()
       FROM events WHERE type = 'PurchaseMade' AND stream_id LIKE 'order-%'`,
  );
  const line = (n: number, account: string, amount: string, type: string) =>
    pool.query(
      `INSERT INTO journal_lines (event_id, line, stream_id, revision, event_type, account, amount_cents, occurred_at)
       SELECT event_id, ${n}, stream_id, revision, type, ${account}, ${amount}, now() FROM events WHERE type = '${type}'`,
    );
  const wallet = `'wallet:user:' || substr(stream_id, 13)`;
  await line(1, `'processor-clearing'`, '2000', 'WalletToppedUp');
  await line(2, wallet, '-2000', 'WalletToppedUp');
  await line(1, wallet, '1000', 'WalletDebited');
  await line(2, `'wallet-purchases-clearing'`, '-1000', 'WalletDebited');
  await line(1, `'wallet-purchases-clearing'`, '1000', 'PurchaseMade');
  await line(2, `'vendor-payable:' || (data->>'vendorId')`, '-850', 'PurchaseMade');
  await line(3, `'platform-fee-revenue'`, '-150', 'PurchaseMade');
}

async function processorIntents(pool: Pool): Promise<SucceededPaymentIntent[]> {
  const { rows } = await pool.query(
    `SELECT data->>'paymentIntentId' AS id, data->>'topUpId' AS top_up_id FROM events WHERE type = 'WalletToppedUp'`,
  );
  return rows.map((row: { id: string; top_up_id: string }) => ({
    id: row.id,
    amountCents: 2000,
    metadata: { topUpId: row.top_up_id, purpose: 'top_up' },
    createdAt: '2026-11-01T00:00:00.000Z',
  }));
}

const round1 = (n: number) => Math.round(n * 10) / 10;
