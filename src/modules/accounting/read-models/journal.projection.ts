import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { RecordedEvent } from '../../../event-store/event-store';
import { AsProjection, Projection } from '../../../projections/runner/processor';
import { PurchaseMade } from '../../purchasing/domain/purchase';
import { PurchasingEvents } from '../../purchasing/events';
import { CHART_OF_ACCOUNTS, Line } from '../chart-of-accounts';

/** The event types the chart posts lines for (the rest post nothing). */
const POSTING_TYPES = Object.entries(CHART_OF_ACCOUNTS)
  .filter(([, rule]) => 'lines' in rule)
  .map(([type]) => type);

/**
 * `journal_lines`: the double-entry journal, one row per line, posted by the
 * chart of accounts. A card order's payment names only the order, so the
 * orders it will need are kept in `journal_card_orders` until paid.
 * `ledger reconcile` compares its account balances with the journal it
 * replays from the log.
 */
@Injectable()
@AsProjection()
export class JournalProjection implements Projection {
  readonly name = 'journal';
  readonly eventTypes = POSTING_TYPES;

  async apply(event: RecordedEvent, tx: EntityManager): Promise<void> {
    let order: PurchaseMade['data'] | undefined;
    if (event.type === PurchasingEvents.PurchaseMade && event.data.fundingSource === 'card') {
      await tx.query('INSERT INTO journal_card_orders (order_id, data) VALUES ($1, $2) ON CONFLICT (order_id) DO NOTHING', [
        event.data.orderId,
        event.data,
      ]);
    }
    if (event.type === PurchasingEvents.OrderPaid) {
      // Read, then delete: TypeORM answers a DELETE ... RETURNING as [rows, count].
      const [row]: Array<{ data: PurchaseMade['data'] }> = await tx.query(
        'SELECT data FROM journal_card_orders WHERE order_id = $1',
        [event.data.orderId],
      );
      await tx.query('DELETE FROM journal_card_orders WHERE order_id = $1', [event.data.orderId]);
      order = row?.data;
    }
    const rule = CHART_OF_ACCOUNTS[event.type];
    if (!('lines' in rule)) return;
    const lines: Line[] = rule.lines(event, { order: () => order }).filter((line) => line.amountCents !== 0);
    // An unbalanced entry is not booked here; reconcile names it from the log.
    if (lines.length === 0 || lines.reduce((sum, line) => sum + line.amountCents, 0) !== 0) return;
    await tx.query(
      `INSERT INTO journal_lines (event_id, line, stream_id, revision, event_type, account, amount_cents, occurred_at)
       SELECT $1, l.n, $2, $3, $4, l.account, l.amount, $5
         FROM unnest($6::text[], $7::bigint[]) WITH ORDINALITY AS l(account, amount, n)`,
      [
        event.eventId,
        event.streamId,
        event.revision,
        event.type,
        event.metadata.occurredAt,
        lines.map((line) => line.account),
        lines.map((line) => line.amountCents),
      ],
    );
  }

  async reset(tx: EntityManager): Promise<void> {
    await tx.query('DELETE FROM journal_lines');
    await tx.query('DELETE FROM journal_card_orders');
  }
}
