import { Query } from '@nestjs/cqrs';
import { OrderView } from '../../read-models/purchase-rows';

/** The caller's orders, newest first; with a payment intent id, the order it paid for. */
export class ListOrdersQuery extends Query<OrderView[]> {
  constructor(
    readonly userId: string,
    readonly paymentIntentId?: string,
  ) {
    super();
  }
}
