import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { ORDER_COLUMNS, orderOf, OrderView } from '../../read-models/purchase-rows';
import { ListOrdersQuery } from './list-orders.query';

/** At most this many orders in one answer (the spec's list has no paging). */
const MAX_ORDERS = 500;

@QueryHandler(ListOrdersQuery)
export class ListOrdersHandler implements IQueryHandler<ListOrdersQuery, OrderView[]> {
  constructor(private readonly dataSource: DataSource) {}

  async execute({ userId, paymentIntentId }: ListOrdersQuery): Promise<OrderView[]> {
    const rows = await this.dataSource.query(
      `SELECT ${ORDER_COLUMNS} FROM orders
        WHERE user_id = $1 AND ($2::text IS NULL OR payment_intent_id = $2)
        ORDER BY created_at DESC, id LIMIT ${MAX_ORDERS}`,
      [userId, paymentIntentId ?? null],
    );
    return rows.map(orderOf);
  }
}
