import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { EventCatalogue } from '../src/event-store/event-catalogue';
import { WrongExpectedVersionError } from '../src/event-store/event-store';
import { foldStream } from '../src/event-store/fold-stream';
import { PersonalDataVault } from '../src/event-store/personal-data/personal-data-vault';
import { PostgresEventStore } from '../src/event-store/postgres/postgres-event-store';
import { PostgresSnapshotStore } from '../src/event-store/postgres/postgres-snapshot-store';
import { ReadingEventStore } from '../src/event-store/reading-event-store';
import { DebitWalletCommand } from '../src/modules/wallet/commands/debit-wallet/debit-wallet.command';
import { DebitWalletHandler } from '../src/modules/wallet/commands/debit-wallet/debit-wallet.handler';
import { WalletLedger } from '../src/modules/wallet/commands/wallet-ledger';
import { walletDecider } from '../src/modules/wallet/domain/wallet.decider';
import { userWallet, WalletOwner, walletStreamId } from '../src/modules/wallet/domain/wallet-owner';
import { WalletEvents } from '../src/modules/wallet/events';
import { SystemClock } from '../src/platform/clock/clock';
import { derivedId } from '../src/platform/ids';

const HISTORY = Number(process.env.BENCH_WALLET_HISTORY ?? 1_000_000);
const SEED_BATCH = 100_000;
const ROUND_MS = Number(process.env.BENCH_ROUND_MS ?? 3_000);
const ROUNDS = 5;
const WARM_UP_MS = 1_000;
/**
 * Debits on one wallet serialize on its expected revision: one writer is the
 * rate a single wallet can go at; four show the same comparison when callers
 * race for it (lost races fold and decide again after a backoff).
 */
const WRITERS_PER_WALLET = [1, 4];
const DEBIT_CENTS = 125;
/** Past a request's top-up cap: the fresh wallet only needs to never run out. */
const FRESH_BALANCE_CENTS = 100_000_000;

/** The seeded history, revision by revision: a top-up every tenth transaction, debits of 1 to 9.99 between. */
const amountAt = (r: number) => (r % 10 === 0 ? 20_000 + (r % 7) * 1_000 : -(100 + ((r * 37) % 900)));
const AMOUNT_SQL = `CASE WHEN r % 10 = 0 THEN 20000 + (r % 7) * 1000 ELSE -(100 + (r * 37) % 900) END`;

interface Side {
  ops: number;
  ms: number;
  latencies: number[];
  gaveUp: number;
}

/**
 * Debits through the real DebitWalletHandler on a wallet with a long history
 * beside a fresh wallet, alternating rounds. The decision folds from the
 * wallet's snapshot, so the long history should cost nothing once the first
 * decision has folded it whole (reported apart, as `firstFoldMs`).
 */
export async function benchWallet(pool: Pool) {
  const clock = new SystemClock();
  // Wrapped as EventStoreModule does, so appends are checked and stamped and reads opened and upcast.
  const store = new ReadingEventStore(new PostgresEventStore(pool, () => clock.now()), new PersonalDataVault(pool));
  const snapshots = new PostgresSnapshotStore(pool);
  const ledger = new WalletLedger(store, snapshots);
  const handler = new DebitWalletHandler(store, ledger, clock);

  const long = userWallet(randomUUID());
  const longStream = walletStreamId(long);
  let started = Date.now();
  const seedBalanceCents = await seedWallet(pool, longStream, HISTORY);
  const seedSeconds = round1((Date.now() - started) / 1000);
  await checkDerivedIds(pool, longStream);

  // A normal read, without snapshots (as a projection or an audit reads it): the seed must fold to its balance.
  started = Date.now();
  const read = await foldStream(store, longStream, walletDecider.evolve, walletDecider.initialState);
  const fullReadMs = Date.now() - started;
  if (read.revision !== HISTORY - 1 || read.state.balanceCents !== seedBalanceCents)
    throw new Error(`seeded wallet folds to ${read.state.balanceCents} at ${read.revision}, expected ${seedBalanceCents}`);

  let longDebits = 0;
  const debit = async (owner: WalletOwner) => {
    const reference = { usageRecordId: randomUUID() };
    await handler.execute(new DebitWalletCommand(owner, randomUUID(), DEBIT_CENTS, 'metered_usage', 'Metered usage', reference));
    if (owner === long) longDebits++;
  };

  // The first decision finds no snapshot, folds the whole history once and saves one.
  started = Date.now();
  await debit(long);
  const firstFoldMs = Date.now() - started;
  const snapshot = await snapshots.load(longStream);
  if (!snapshot || snapshot.revision !== HISTORY - 1) throw new Error(`no snapshot at ${HISTORY - 1} after the first decision`);

  const runs = [];
  for (const writers of WRITERS_PER_WALLET) {
    const run = (owner: WalletOwner, ms: number) => debitsFor(() => debit(owner), writers, ms);
    await run(await openFreshWallet(store, clock), WARM_UP_MS);
    await run(long, WARM_UP_MS);
    const ratios: number[] = [];
    const totals = { fresh: emptySide(), long: emptySide() };
    for (let round = 0; round < ROUNDS; round++) {
      // A new fresh wallet each round, so its history stays as short as a round makes it.
      const fresh = await openFreshWallet(store, clock);
      // Each side goes first in every other round, so a trend in the machine's load hits both alike.
      const freshFirst = round % 2 === 0;
      const first = await run(freshFirst ? fresh : long, ROUND_MS);
      const second = await run(freshFirst ? long : fresh, ROUND_MS);
      const [freshRound, longRound] = freshFirst ? [first, second] : [second, first];
      ratios.push(longRound.ops / longRound.ms / (freshRound.ops / freshRound.ms));
      addTo(totals.fresh, freshRound);
      addTo(totals.long, longRound);
    }
    runs.push({
      writersPerWallet: writers,
      fresh: summary(totals.fresh),
      long: summary(totals.long),
      ratio: round2(median(ratios)),
      ratioPerRound: ratios.map(round2),
    });
  }

  const correctness = await checkBalance(pool, store, ledger, long, seedBalanceCents, longDebits);
  await store.close();
  return {
    history: HISTORY,
    snapshotEvery: walletDecider.snapshot?.every,
    debitCents: DEBIT_CENTS,
    roundMs: ROUND_MS,
    seedSeconds,
    fullReadMs,
    firstFoldMs,
    runs,
    correctness,
    target: 'ratio >= 0.8 (median of the rounds, long/fresh debits per second)',
  };
}

/**
 * Writes `count` wallet events to `streamId` as the store would (revisions from
 * 0, ids derived from their cause as the decider derives them, the catalogue's
 * schema version, a head row), in a few large statements rather than a million
 * appends. Returns the balance the history leaves.
 */
async function seedWallet(pool: Pool, streamId: string, count: number): Promise<number> {
  let balance = 0;
  for (let from = 0; from < count; from += SEED_BATCH) {
    const to = Math.min(count, from + SEED_BATCH) - 1;
    await pool.query(
      `WITH moves AS (
         SELECT r, r % 10 = 0 AS top_up, ${AMOUNT_SQL} AS amount, gen_random_uuid()::text AS cause,
                to_char((timestamptz '2024-01-01 00:00:00+00' + r * interval '1 minute') AT TIME ZONE 'UTC',
                        'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at
           FROM generate_series($1::bigint, $2::bigint) r
       ), running AS (
         SELECT *, $3::bigint + sum(amount) OVER (ORDER BY r) AS balance_after,
                CASE WHEN top_up THEN '${WalletEvents.WalletToppedUp}' ELSE '${WalletEvents.WalletDebited}' END AS type
           FROM moves
       ), hashed AS (
         -- derivedId(type, cause): the first 16 bytes of SHA-256 over length-prefixed parts, as a version 5 style uuid.
         SELECT *, substring(sha256(convert_to(length(type) || ':' || type || ';' || octet_length(cause) || ':' || cause || ';',
                                               'UTF8')) FROM 1 FOR 16) AS h
           FROM running
       )
       INSERT INTO events (event_id, stream_id, revision, type, data, metadata)
       SELECT encode(set_byte(set_byte(h, 6, (get_byte(h, 6) & 15) | 80), 8, (get_byte(h, 8) & 63) | 128), 'hex')::uuid,
              $4, r, type,
              CASE WHEN top_up
                THEN jsonb_build_object('topUpId', cause, 'paymentIntentId', 'pi_' || left(md5(cause), 24), 'source', 'top_up',
                                        'amountCents', amount, 'balanceAfterCents', balance_after, 'toppedUpAt', at)
                ELSE jsonb_build_object('debitId', cause, 'reason', CASE WHEN r % 3 = 0 THEN 'purchase' ELSE 'metered_usage' END,
                                        'description', CASE WHEN r % 3 = 0 THEN 'Purchase of a listing' ELSE 'Metered usage' END,
                                        'amountCents', amount, 'balanceAfterCents', balance_after,
                                        'reference', CASE WHEN r % 3 = 0 THEN jsonb_build_object('purchaseId', md5(cause || 'r')::uuid)
                                                          ELSE jsonb_build_object('usageRecordId', md5(cause || 'r')::uuid) END,
                                        'debitedAt', at)
              END,
              jsonb_build_object('schemaVersion', CASE WHEN top_up THEN $5::int ELSE $6::int END, 'occurredAt', at,
                                 'correlationId', gen_random_uuid())
         FROM hashed
        ORDER BY r`,
      [
        from,
        to,
        balance,
        streamId,
        EventCatalogue.schemaVersionOf(WalletEvents.WalletToppedUp),
        EventCatalogue.schemaVersionOf(WalletEvents.WalletDebited),
      ],
    );
    for (let r = from; r <= to; r++) balance += amountAt(r);
  }
  await pool.query('INSERT INTO streams (stream_id, revision) VALUES ($1, $2)', [streamId, count - 1]);
  // As autovacuum would soon after such a load; the planner should not guess at a million fresh rows.
  await pool.query('ANALYZE events');
  const { rows } = await pool.query(
    `SELECT (data->>'balanceAfterCents')::bigint AS balance FROM events WHERE stream_id = $1 AND revision = $2`,
    [streamId, count - 1],
  );
  if (Number(rows[0]?.balance) !== balance) throw new Error(`seeded balance ${rows[0]?.balance}, computed ${balance}`);
  return balance;
}

/** The SQL spelling of derivedId must match the app's, or a retried seeded debit would not be a no-op. */
async function checkDerivedIds(pool: Pool, streamId: string): Promise<void> {
  const { rows } = await pool.query<{ event_id: string; type: string; cause: string }>(
    `SELECT event_id, type, coalesce(data->>'topUpId', data->>'debitId') AS cause FROM events
      WHERE stream_id = $1 AND revision IN (0, 1)`,
    [streamId],
  );
  for (const row of rows)
    if (row.event_id !== derivedId(row.type, row.cause)) throw new Error(`seeded ${row.type} id is not derived from its cause`);
}

/** A wallet with one top-up, appended through the store as the top-up's settlement would. */
async function openFreshWallet(store: ReadingEventStore, clock: SystemClock): Promise<WalletOwner> {
  const owner = userWallet(randomUUID());
  const topUpId = randomUUID();
  const events = walletDecider.decide(
    {
      type: 'CreditTopUp',
      topUpId,
      paymentIntentId: `pi_${topUpId.replace(/-/g, '').slice(0, 24)}`,
      source: 'top_up',
      amountCents: FRESH_BALANCE_CENTS,
      now: clock.now(),
    },
    walletDecider.initialState,
  );
  await store.append(walletStreamId(owner), events, 'no_stream');
  return owner;
}

/** `writers` callers debiting one wallet back to back for `durationMs`; a debit that lost every race is counted apart. */
async function debitsFor(debit: () => Promise<void>, writers: number, durationMs: number): Promise<Side> {
  const started = Date.now();
  const deadline = started + durationMs;
  const side = emptySide();
  await Promise.all(
    Array.from({ length: writers }, async () => {
      while (Date.now() < deadline) {
        const t0 = process.hrtime.bigint();
        try {
          await debit();
        } catch (error) {
          if (!(error instanceof WrongExpectedVersionError)) throw error;
          side.gaveUp++;
          continue;
        }
        side.latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
        side.ops++;
      }
    }),
  );
  side.ms = Date.now() - started;
  return side;
}

/**
 * The long wallet after the run: its balance, folded from the snapshot as a
 * decision does and read whole as a projection would, must be the seed's less
 * every debit that succeeded, and the head must have moved by one per debit.
 */
async function checkBalance(
  pool: Pool,
  store: ReadingEventStore,
  ledger: WalletLedger,
  owner: WalletOwner,
  seedBalanceCents: number,
  debits: number,
) {
  const expectedBalanceCents = seedBalanceCents - debits * DEBIT_CENTS;
  const fromSnapshot = await ledger.fold(owner);
  const whole = await foldStream(store, walletStreamId(owner), walletDecider.evolve, walletDecider.initialState);
  const { rows } = await pool.query<{ revision: string }>('SELECT revision FROM streams WHERE stream_id = $1', [
    walletStreamId(owner),
  ]);
  const headRevision = Number(rows[0].revision);
  return {
    seedBalanceCents,
    debits,
    expectedBalanceCents,
    snapshotFoldBalanceCents: fromSnapshot.state.balanceCents,
    fullReadBalanceCents: whole.state.balanceCents,
    headRevision,
    ok:
      fromSnapshot.state.balanceCents === expectedBalanceCents &&
      whole.state.balanceCents === expectedBalanceCents &&
      headRevision === HISTORY - 1 + debits &&
      whole.revision === headRevision,
  };
}

function summary(side: Side) {
  const sorted = [...side.latencies].sort((a, b) => a - b);
  return {
    debits: side.ops,
    debitsPerSecond: Math.round((side.ops * 1000) / side.ms),
    latencyMs: { p50: round2(percentile(sorted, 0.5)), p99: round2(percentile(sorted, 0.99)) },
    gaveUp: side.gaveUp,
  };
}

function emptySide(): Side {
  return { ops: 0, ms: 0, latencies: [], gaveUp: 0 };
}

function addTo(total: Side, round: Side): void {
  total.ops += round.ops;
  total.ms += round.ms;
  total.gaveUp += round.gaveUp;
  for (const latency of round.latencies) total.latencies.push(latency);
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)] ?? NaN;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function round1(n: number): number {
  return Math.round(n * 10) / 10;
}

function round2(n: number): number {
  return Math.round(n * 100) / 100;
}
