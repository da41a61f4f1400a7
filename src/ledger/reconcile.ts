import { DataSource } from 'typeorm';
import { EventStore, RecordedEvent } from '../event-store/event-store';
import { Accounts } from '../modules/accounting/chart-of-accounts';
import { Journal } from '../modules/accounting/journal';
import { PaymentGateway, SucceededPaymentIntent, TimeWindow } from '../modules/billing/domain/payment-gateway';
import { PurchaseMade } from '../modules/purchasing/domain/purchase';
import { PurchasingEvents } from '../modules/purchasing/events';
import { WalletEvents } from '../modules/wallet/events';
import { readWholeLog } from './log-reader';
import { Progress } from './progress';

export type Check = 'wallets' | 'orders' | 'processor' | 'journal' | 'vendor_payables';

export interface Finding {
  check: Check;
  /** A stable name for the kind of difference, e.g. `intent_paid_not_credited`. */
  kind: string;
  /** What it is about: a wallet, order, intent, vendor or event. */
  subject: string;
  detail: string;
  /** Explained differences are expected by design (said why); unexplained ones fail the run. */
  explained: boolean;
}

export interface ReconcileReport {
  window: { from: string | null; to: string | null };
  eventsRead: number;
  checked: Record<Check, number>;
  trialBalanceCents: number;
  accounts: Array<{ account: string; balanceCents: number }>;
  findings: Finding[];
  unexplained: number;
}

interface Credit {
  eventId: string;
  walletStreamId: string;
  topUpId: string;
  paymentIntentId: string;
  amountCents: number;
  at: string;
}

interface OrderOnRecord {
  made: PurchaseMade['data'];
  status: 'paid' | 'pending' | 'failed';
  paymentIntentId: string | null;
  at: string;
}

/** What one pass over the log gathers for the checks. */
class LogFacts {
  readonly journal = new Journal();
  readonly wallets = new Map<string, { balance: number; broken: number }>();
  readonly credits: Credit[] = [];
  readonly orders = new Map<string, OrderOnRecord>();
  readonly unmatchedIntents = new Set<string>();
  events = 0;

  take(event: RecordedEvent): void {
    this.events++;
    this.journal.record(event);
    const d = event.data as Record<string, any>;
    switch (event.type) {
      case WalletEvents.WalletToppedUp:
      case WalletEvents.WalletDebited:
      case WalletEvents.WalletCredited: {
        const wallet = this.wallets.get(event.streamId) ?? { balance: 0, broken: 0 };
        wallet.balance += Number(d.amountCents);
        if (Number(d.balanceAfterCents) !== wallet.balance) wallet.broken++;
        this.wallets.set(event.streamId, wallet);
        if (event.type === WalletEvents.WalletToppedUp)
          this.credits.push({
            eventId: event.eventId,
            walletStreamId: event.streamId,
            topUpId: d.topUpId,
            paymentIntentId: d.paymentIntentId,
            amountCents: Number(d.amountCents),
            at: event.metadata.occurredAt,
          });
        break;
      }
      case WalletEvents.UnmatchedPaymentRecorded:
        this.unmatchedIntents.add(d.paymentIntentId);
        break;
      case PurchasingEvents.PurchaseMade:
        this.orders.set(d.orderId, {
          made: d as PurchaseMade['data'],
          status: d.status,
          paymentIntentId: d.paymentIntentId ?? null,
          at: event.metadata.occurredAt,
        });
        break;
      case PurchasingEvents.OrderCharged:
      case PurchasingEvents.OrderPaid:
      case PurchasingEvents.OrderPaymentFailed: {
        const order = this.orders.get(d.orderId);
        if (!order) break;
        if (d.paymentIntentId) order.paymentIntentId = d.paymentIntentId;
        if (event.type === PurchasingEvents.OrderPaid) order.status = 'paid';
        if (event.type === PurchasingEvents.OrderPaymentFailed) order.status = 'failed';
        break;
      }
    }
  }
}

const inWindow = (at: string, window: TimeWindow): boolean =>
  (!window.from || Date.parse(at) >= window.from.getTime()) && (!window.to || Date.parse(at) <= window.to.getTime());

/**
 * One pass over the log, then every comparison finance asks for: wallets
 * against their read model, orders against PurchaseMade, top-up credits and
 * card payments against the processor's succeeded intents, the journal's
 * trial balance, and vendor payables against paid orders minus fees.
 * Balances always cover the whole log; the window narrows the processor
 * comparison to intents and credits made within it.
 */
export async function reconcile(
  store: EventStore,
  db: DataSource,
  gateway: PaymentGateway,
  window: TimeWindow,
  progress?: Progress,
): Promise<ReconcileReport> {
  // The read models and the processor's list are fetched while the log is read: independent, and as slow.
  const others = Promise.all([
    db.query('SELECT owner_kind, owner_id, balance_cents FROM wallets'),
    db.query('SELECT id, amount_cents, platform_fee_cents, vendor_net_cents, status FROM orders'),
    db.query('SELECT account, sum(amount_cents) AS balance FROM journal_lines GROUP BY account'),
    db.query(
      `SELECT vendor_id, sum(amount_cents - platform_fee_cents) AS net FROM orders WHERE status = 'paid' GROUP BY vendor_id`,
    ),
    gateway.listSucceededPaymentIntents(window),
  ]);
  others.catch(() => undefined); // awaited below; a failure then is the run's failure
  const facts = new LogFacts();
  for await (const batch of readWholeLog(store, progress)) for (const event of batch) facts.take(event);
  const [walletRows, orderRows, journalRows, payableRows, intents] = await others;

  const findings: Finding[] = [];
  const checked = { wallets: 0, orders: 0, processor: 0, journal: 0, vendor_payables: 0 };
  checked.wallets = checkWallets(walletRows, facts, findings);
  checked.orders = checkOrders(orderRows, facts, findings);
  checked.processor = checkProcessor(intents, facts, window, findings);
  checked.journal = checkJournal(journalRows, facts, findings);
  checked.vendor_payables = checkVendorPayables(payableRows, facts, findings);

  return {
    window: { from: window.from?.toISOString() ?? null, to: window.to?.toISOString() ?? null },
    eventsRead: facts.events,
    checked,
    trialBalanceCents: facts.journal.trialBalance(),
    accounts: facts.journal.accounts(),
    findings,
    unexplained: findings.filter((f) => !f.explained).length,
  };
}

function checkWallets(
  rows: Array<{ owner_kind: string; owner_id: string; balance_cents: string }>,
  facts: LogFacts,
  findings: Finding[],
): number {
  const readModel = new Map(rows.map((row) => [`wallet-${row.owner_kind}-${row.owner_id}`, Number(row.balance_cents)]));
  for (const [streamId, wallet] of facts.wallets) {
    if (wallet.broken > 0)
      findings.push({
        check: 'wallets',
        kind: 'balance_after_does_not_follow',
        subject: streamId,
        detail: `${wallet.broken} event(s) record a balanceAfterCents that the amounts before them do not add up to`,
        explained: false,
      });
    const modelled = readModel.get(streamId);
    readModel.delete(streamId);
    if (modelled !== wallet.balance)
      findings.push({
        check: 'wallets',
        kind: 'read_model_balance_differs',
        subject: streamId,
        detail: `replayed ${wallet.balance} cents, read model ${modelled ?? 'has no row'}`,
        explained: false,
      });
  }
  for (const [streamId, balance] of readModel)
    if (balance !== 0)
      findings.push({
        check: 'wallets',
        kind: 'read_model_balance_without_events',
        subject: streamId,
        detail: `read model ${balance} cents, the log has no money event for this wallet`,
        explained: false,
      });
  return facts.wallets.size;
}

function checkOrders(
  rows: Array<{ id: string; amount_cents: string; platform_fee_cents: string; vendor_net_cents: string; status: string }>,
  facts: LogFacts,
  findings: Finding[],
): number {
  const readModel = new Map(rows.map((row) => [row.id, row]));
  for (const [orderId, order] of facts.orders) {
    const row = readModel.get(orderId);
    readModel.delete(orderId);
    const { amountCents, platformFeeCents, vendorNetCents } = order.made;
    if (amountCents !== platformFeeCents + vendorNetCents)
      findings.push({
        check: 'orders',
        kind: 'split_does_not_add_up',
        subject: `order ${orderId}`,
        detail: `amount ${amountCents} is not fee ${platformFeeCents} + vendor net ${vendorNetCents}`,
        explained: false,
      });
    if (!row) {
      findings.push({
        check: 'orders',
        kind: 'order_missing_from_read_model',
        subject: `order ${orderId}`,
        detail: 'PurchaseMade has no orders row',
        explained: false,
      });
      continue;
    }
    const differences = [
      Number(row.amount_cents) !== amountCents && `amount ${row.amount_cents} vs ${amountCents}`,
      Number(row.platform_fee_cents) !== platformFeeCents && `fee ${row.platform_fee_cents} vs ${platformFeeCents}`,
      Number(row.vendor_net_cents) !== vendorNetCents && `vendor net ${row.vendor_net_cents} vs ${vendorNetCents}`,
      row.status !== order.status && `status ${row.status} vs ${order.status}`,
    ].filter(Boolean);
    if (differences.length)
      findings.push({
        check: 'orders',
        kind: 'order_differs_from_log',
        subject: `order ${orderId}`,
        detail: `read model vs log: ${differences.join(', ')}`,
        explained: false,
      });
  }
  for (const orderId of readModel.keys())
    findings.push({
      check: 'orders',
      kind: 'order_without_purchase',
      subject: `order ${orderId}`,
      detail: 'an orders row no PurchaseMade records',
      explained: false,
    });
  return facts.orders.size;
}

function checkProcessor(intents: SucceededPaymentIntent[], facts: LogFacts, window: TimeWindow, findings: Finding[]): number {
  const paid = new Map(intents.map((intent) => [intent.id, intent]));
  const creditsByIntent = new Map<string, Credit[]>();
  for (const credit of facts.credits)
    creditsByIntent.set(credit.paymentIntentId, [...(creditsByIntent.get(credit.paymentIntentId) ?? []), credit]);
  const creditsByTopUp = new Map<string, Credit[]>();
  for (const credit of facts.credits) creditsByTopUp.set(credit.topUpId, [...(creditsByTopUp.get(credit.topUpId) ?? []), credit]);
  const ordersByIntent = new Map<string, OrderOnRecord>();
  for (const order of facts.orders.values()) if (order.paymentIntentId) ordersByIntent.set(order.paymentIntentId, order);

  for (const intent of intents) {
    const purpose = intent.metadata.purpose;
    if (intent.metadata.orderId || purpose === 'purchase') {
      const order = facts.orders.get(intent.metadata.orderId) ?? ordersByIntent.get(intent.id);
      if (!order || order.status !== 'paid')
        findings.push({
          check: 'processor',
          kind: 'intent_paid_order_not_paid',
          subject: `intent ${intent.id}`,
          detail: `the processor took ${intent.amountCents} cents for order ${intent.metadata.orderId ?? '?'}, which the log ${order ? `records as ${order.status}` : 'does not record'}`,
          explained: false,
        });
      else if (order.made.amountCents !== intent.amountCents)
        findings.push({
          check: 'processor',
          kind: 'amount_differs',
          subject: `intent ${intent.id}`,
          detail: `processor ${intent.amountCents}, order ${order.made.amountCents}`,
          explained: false,
        });
      continue;
    }
    const credits = creditsByIntent.get(intent.id) ?? [];
    if (credits.length === 0) {
      const unmatched = facts.unmatchedIntents.has(intent.id);
      findings.push({
        check: 'processor',
        kind: unmatched ? 'unmatched_payment_recorded' : 'intent_paid_not_credited',
        subject: `intent ${intent.id}`,
        detail: unmatched
          ? `${intent.amountCents} cents paid for no top-up of ours: recorded as UnmatchedPaymentRecorded for finance, never credited`
          : `${intent.amountCents} cents paid (top-up ${intent.metadata.topUpId ?? 'unknown'}) but no wallet was credited`,
        explained: unmatched,
      });
    } else if (credits[0].amountCents !== intent.amountCents) {
      findings.push({
        check: 'processor',
        kind: 'amount_differs',
        subject: `intent ${intent.id}`,
        detail: `processor ${intent.amountCents} cents, credited ${credits[0].amountCents} cents to ${credits[0].walletStreamId}`,
        explained: false,
      });
    }
  }

  for (const [intentId, credits] of creditsByIntent) {
    const inScope = credits.filter((credit) => inWindow(credit.at, window));
    if (inScope.length === 0) continue;
    if (!paid.has(intentId) && !window.from)
      for (const credit of inScope)
        findings.push({
          check: 'processor',
          kind: 'credit_without_payment',
          subject: `event ${credit.eventId}`,
          detail: `${credit.walletStreamId} was credited ${credit.amountCents} cents for intent ${intentId}, which the processor does not report as succeeded`,
          explained: false,
        });
    if (credits.length > 1)
      findings.push({
        check: 'processor',
        kind: 'double_credit',
        subject: `intent ${intentId}`,
        detail: `credited ${credits.length} times: events ${credits.map((c) => c.eventId).join(', ')}`,
        explained: false,
      });
  }
  for (const [topUpId, credits] of creditsByTopUp) {
    const intents = new Set(credits.map((c) => c.paymentIntentId));
    if (credits.length > 1 && intents.size > 1)
      findings.push({
        check: 'processor',
        kind: 'double_credit',
        subject: `top-up ${topUpId}`,
        detail: `credited ${credits.length} times under intents ${[...intents].join(', ')}`,
        explained: false,
      });
  }
  return intents.length + facts.credits.length;
}

function checkJournal(rows: Array<{ account: string; balance: string }>, facts: LogFacts, findings: Finding[]): number {
  const { journal } = facts;
  const projected = new Map(rows.map((row) => [row.account, Number(row.balance)]));
  for (const { account, balanceCents } of journal.accounts()) {
    const inReadModel = projected.get(account) ?? 0;
    projected.delete(account);
    if (inReadModel !== balanceCents)
      findings.push({
        check: 'journal',
        kind: 'journal_read_model_differs',
        subject: account,
        detail: `journal_lines ${inReadModel} cents, replayed ${balanceCents} cents`,
        explained: false,
      });
  }
  for (const [account, balance] of projected)
    if (balance !== 0)
      findings.push({
        check: 'journal',
        kind: 'journal_read_model_differs',
        subject: account,
        detail: `journal_lines ${balance} cents, the log posts nothing to it`,
        explained: false,
      });
  for (const problem of journal.problems)
    findings.push({
      check: 'journal',
      kind: problem.kind,
      subject: `${problem.streamId}@${problem.revision}`,
      detail: `${problem.type} ${problem.eventId}: ${problem.detail}`,
      explained: false,
    });
  if (journal.trialBalance() !== 0)
    findings.push({
      check: 'journal',
      kind: 'trial_balance_not_zero',
      subject: 'journal',
      detail: `${journal.trialBalance()} cents`,
      explained: false,
    });
  const clearing = journal.balanceOf(Accounts.walletPurchasesClearing);
  if (clearing !== 0)
    findings.push({
      check: 'journal',
      kind: 'purchases_clearing_not_zero',
      subject: Accounts.walletPurchasesClearing,
      detail: `${clearing} cents: wallet purchase debits and the orders they paid for do not match`,
      explained: false,
    });
  return journal.entries;
}

/** Payables as the journal posted them, against the orders read model's paid orders minus fees. */
function checkVendorPayables(rows: Array<{ vendor_id: string; net: string }>, facts: LogFacts, findings: Finding[]): number {
  const fromOrders = new Map(rows.map((row) => [row.vendor_id, Number(row.net)]));
  const vendors = new Set<string>(fromOrders.keys());
  for (const { account } of facts.journal.accounts())
    if (account.startsWith('vendor-payable:')) vendors.add(account.slice('vendor-payable:'.length));
  for (const vendorId of vendors) {
    const payable = -facts.journal.balanceOf(Accounts.vendorPayable(vendorId));
    const expected = fromOrders.get(vendorId) ?? 0;
    if (payable !== expected)
      findings.push({
        check: 'vendor_payables',
        kind: 'payable_differs_from_paid_orders',
        subject: `vendor ${vendorId}`,
        detail: `journal payable ${payable} cents, paid orders minus fees ${expected} cents`,
        explained: false,
      });
  }
  return vendors.size;
}
