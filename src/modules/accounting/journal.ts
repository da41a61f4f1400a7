import { RecordedEvent } from '../../event-store/event-store';
import { PurchaseMade } from '../purchasing/domain/purchase';
import { PurchasingEvents } from '../purchasing/events';
import { Line, PostingContext, postingRuleFor } from './chart-of-accounts';

export interface JournalEntry {
  eventId: string;
  type: string;
  streamId: string;
  revision: number;
  at: string;
  lines: Line[];
}

/** An event the books could not take: no rule for a payload in cents, or a rule whose lines do not balance. */
export interface JournalProblem {
  kind: 'no_posting_rule' | 'unbalanced_entry';
  eventId: string;
  type: string;
  streamId: string;
  revision: number;
  detail: string;
}

const CENTS_FIELD = /Cents$/;

/**
 * The double-entry journal, folded from the log in order. Each money event
 * becomes one balanced entry per the chart of accounts; account balances and
 * the trial balance (their sum, always zero) follow from the entries.
 */
export class Journal implements PostingContext {
  private readonly balances = new Map<string, number>();
  private readonly orders = new Map<string, PurchaseMade['data']>();
  readonly problems: JournalProblem[] = [];
  entries = 0;

  order(orderId: string): PurchaseMade['data'] | undefined {
    return this.orders.get(orderId);
  }

  /** Posts one event; answers its entry, or null when it moves no money. */
  record(event: RecordedEvent): JournalEntry | null {
    if (event.type === PurchasingEvents.PurchaseMade) {
      const order = event.data as PurchaseMade['data'];
      // Only card orders are needed later (their payment names just the order).
      if (order.fundingSource === 'card') this.orders.set(order.orderId, order);
    }
    const rule = postingRuleFor(event.type);
    if (!rule) {
      if (Object.keys(event.data).some((field) => CENTS_FIELD.test(field)))
        this.problem(event, 'no_posting_rule', 'its payload has an amount in cents but the chart of accounts has no line for it');
      return null;
    }
    if (!('lines' in rule)) return null;
    const lines = rule.lines(event, this).filter((line) => line.amountCents !== 0);
    if (lines.length === 0) return null;
    const sum = lines.reduce((total, line) => total + line.amountCents, 0);
    if (!lines.every((line) => Number.isSafeInteger(line.amountCents)) || sum !== 0) {
      this.problem(event, 'unbalanced_entry', `lines sum to ${sum} cents`);
      return null;
    }
    for (const line of lines) this.balances.set(line.account, (this.balances.get(line.account) ?? 0) + line.amountCents);
    if (event.type === PurchasingEvents.OrderPaid) this.orders.delete(String(event.data.orderId));
    this.entries++;
    return {
      eventId: event.eventId,
      type: event.type,
      streamId: event.streamId,
      revision: event.revision,
      at: event.metadata.occurredAt,
      lines,
    };
  }

  balanceOf(account: string): number {
    return this.balances.get(account) ?? 0;
  }

  /** Every account with its balance (debit positive), sorted by name. */
  accounts(): Array<{ account: string; balanceCents: number }> {
    return [...this.balances.entries()]
      .map(([account, balanceCents]) => ({ account, balanceCents }))
      .sort((a, b) => a.account.localeCompare(b.account));
  }

  /** The sum of every account: zero, since every entry balances. */
  trialBalance(): number {
    let sum = 0;
    for (const balance of this.balances.values()) sum += balance;
    return sum;
  }

  private problem(event: RecordedEvent, kind: JournalProblem['kind'], detail: string): void {
    this.problems.push({
      kind,
      eventId: event.eventId,
      type: event.type,
      streamId: event.streamId,
      revision: event.revision,
      detail,
    });
  }
}
