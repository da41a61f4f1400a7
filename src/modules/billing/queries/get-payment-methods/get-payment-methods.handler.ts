import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { GetPaymentMethodsQuery, PaymentMethodsView } from './get-payment-methods.query';

@QueryHandler(GetPaymentMethodsQuery)
export class GetPaymentMethodsHandler implements IQueryHandler<GetPaymentMethodsQuery, PaymentMethodsView> {
  constructor(private readonly dataSource: DataSource) {}

  async execute({ owner }: GetPaymentMethodsQuery): Promise<PaymentMethodsView> {
    const [customer] = await this.dataSource.query('SELECT 1 FROM billing_customers WHERE owner_kind = $1 AND owner_id = $2', [
      owner.kind,
      owner.id,
    ]);
    const rows: { payment_method_id: string; brand: string; last4: string; exp_month: number; exp_year: number }[] =
      await this.dataSource.query(
        `SELECT payment_method_id, brand, last4, exp_month, exp_year FROM billing_payment_methods
          WHERE owner_kind = $1 AND owner_id = $2 ORDER BY saved_at DESC, payment_method_id`,
        [owner.kind, owner.id],
      );
    return {
      hasStripeCustomer: customer !== undefined,
      paymentMethods: rows.map((row) => ({
        id: row.payment_method_id,
        brand: row.brand,
        last4: row.last4,
        expMonth: row.exp_month,
        expYear: row.exp_year,
      })),
    };
  }
}
