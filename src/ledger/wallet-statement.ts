import { DataSource } from 'typeorm';
import { EventStore, RecordedEvent } from '../event-store/event-store';
import { WalletEvents } from '../modules/wallet/events';

export interface StatementLine {
  revision: number;
  eventId: string;
  at: string;
  type: 'top_up' | 'auto_top_up' | 'purchase' | 'metered_usage' | 'refund';
  description: string;
  amountCents: number;
  /** What the event recorded. */
  balanceAfterCents: number;
  /** What the events before it add up to, plus this one. */
  replayedBalanceCents: number;
}

export interface WalletStatement {
  owner: { kind: 'user' | 'org'; id: string; email?: string | null; name?: string | null; deleted?: boolean };
  walletStreamId: string;
  asOf: string | null;
  transactions: StatementLine[];
  balanceCents: number;
  /** Events whose `balanceAfterCents` does not follow from the one before. */
  brokenBalances: Array<{ revision: number; eventId: string; recordedCents: number; replayedCents: number }>;
  readModel: { agrees: boolean; balanceCents: number | null; differences: string[] };
}

const MONEY_TYPES = new Set<string>([WalletEvents.WalletToppedUp, WalletEvents.WalletDebited, WalletEvents.WalletCredited]);

/** A wallet's money events with running balances, from its stream. */
export function replayWallet(events: RecordedEvent[]): Pick<WalletStatement, 'transactions' | 'brokenBalances'> {
  const transactions: StatementLine[] = [];
  const brokenBalances: WalletStatement['brokenBalances'] = [];
  let balance = 0;
  for (const event of events) {
    if (!MONEY_TYPES.has(event.type)) continue;
    const amountCents = Number(event.data.amountCents);
    const recorded = Number(event.data.balanceAfterCents);
    balance += amountCents;
    if (recorded !== balance)
      brokenBalances.push({ revision: event.revision, eventId: event.eventId, recordedCents: recorded, replayedCents: balance });
    transactions.push({
      revision: event.revision,
      eventId: event.eventId,
      at: event.metadata.occurredAt,
      type: transactionType(event),
      description: String(event.data.description ?? (event.data.source === 'auto_top_up' ? 'Auto top-up' : 'Top-up')),
      amountCents,
      balanceAfterCents: recorded,
      replayedBalanceCents: balance,
    });
  }
  return { transactions, brokenBalances };
}

function transactionType(event: RecordedEvent): StatementLine['type'] {
  if (event.type === WalletEvents.WalletToppedUp) return event.data.source === 'auto_top_up' ? 'auto_top_up' : 'top_up';
  if (event.type === WalletEvents.WalletCredited) return 'refund';
  return event.data.reason === 'metered_usage' ? 'metered_usage' : 'purchase';
}

export async function walletStatement(
  store: EventStore,
  db: DataSource,
  owner: WalletStatement['owner'],
  asOf: Date | null,
): Promise<WalletStatement> {
  const walletStreamId = `wallet-${owner.kind}-${owner.id}`;
  const { transactions, brokenBalances } = replayWallet(await store.readStream(walletStreamId));
  const shown = asOf ? transactions.filter((t) => Date.parse(t.at) <= asOf.getTime()) : transactions;
  return {
    owner,
    walletStreamId,
    asOf: asOf?.toISOString() ?? null,
    transactions: shown,
    balanceCents: shown.length ? shown[shown.length - 1].replayedBalanceCents : 0,
    brokenBalances,
    readModel: await compareWithReadModel(db, owner, transactions),
  };
}

/** The read model against the whole replay (it shows now, not the `--as-of` time). */
async function compareWithReadModel(
  db: DataSource,
  owner: WalletStatement['owner'],
  transactions: StatementLine[],
): Promise<WalletStatement['readModel']> {
  const [wallet]: Array<{ balance_cents: string }> = await db.query(
    'SELECT balance_cents FROM wallets WHERE owner_kind = $1 AND owner_id = $2',
    [owner.kind, owner.id],
  );
  const rows: Array<{ revision: string; amount_cents: string; balance_after_cents: string }> = await db.query(
    'SELECT revision, amount_cents, balance_after_cents FROM wallet_transactions WHERE owner_kind = $1 AND owner_id = $2 ORDER BY revision',
    [owner.kind, owner.id],
  );
  const replayed = transactions.length ? transactions[transactions.length - 1].replayedBalanceCents : 0;
  const balanceCents = wallet ? Number(wallet.balance_cents) : null;
  const differences: string[] = [];
  if ((balanceCents ?? 0) !== replayed) differences.push(`balance: read model ${balanceCents ?? 'no row'}, log ${replayed}`);
  const byRevision = new Map(rows.map((row) => [Number(row.revision), row]));
  for (const t of transactions) {
    const row = byRevision.get(t.revision);
    byRevision.delete(t.revision);
    if (!row) differences.push(`revision ${t.revision}: missing from the read model`);
    else if (Number(row.amount_cents) !== t.amountCents || Number(row.balance_after_cents) !== t.replayedBalanceCents)
      differences.push(
        `revision ${t.revision}: read model ${row.amount_cents} (balance ${row.balance_after_cents}), log ${t.amountCents} (balance ${t.replayedBalanceCents})`,
      );
  }
  for (const revision of byRevision.keys()) differences.push(`revision ${revision}: in the read model only`);
  return { agrees: differences.length === 0, balanceCents, differences };
}
