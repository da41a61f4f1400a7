import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { RecordedEvent } from '../../../event-store/event-store';
import { AsProjection, Projection } from '../../../projections/runner/processor';
import { BillingCustomerEvent } from '../domain/billing-customer.decider';
import { BillingEvents } from '../events';

const CUSTOMER_STREAM = /^billing-customer-(user|org)-(.+)$/;

/** `billing_customers` and `billing_payment_methods`: who has a processor customer, and the cards' display fields. */
@Injectable()
@AsProjection()
export class BillingCustomersProjection implements Projection {
  readonly name = 'billing-customers';
  readonly eventTypes = [
    BillingEvents.ProcessorCustomerCreated,
    BillingEvents.PaymentMethodSaved,
    BillingEvents.PaymentMethodRemoved,
  ];

  async apply(event: RecordedEvent, tx: EntityManager): Promise<void> {
    const owner = CUSTOMER_STREAM.exec(event.streamId);
    if (!owner) return;
    const [, ownerKind, ownerId] = owner;
    const e = event as unknown as BillingCustomerEvent;
    if (e.type === BillingEvents.ProcessorCustomerCreated) {
      await tx.query(
        `INSERT INTO billing_customers (owner_kind, owner_id, customer_id, created_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (owner_kind, owner_id) DO NOTHING`,
        [ownerKind, ownerId, e.data.customerId, e.data.createdAt],
      );
    } else if (e.type === BillingEvents.PaymentMethodRemoved) {
      await tx.query('DELETE FROM billing_payment_methods WHERE owner_kind = $1 AND owner_id = $2 AND payment_method_id = $3', [
        ownerKind,
        ownerId,
        e.data.paymentMethodId,
      ]);
    } else if (e.type === BillingEvents.PaymentMethodSaved) {
      await tx.query(
        `INSERT INTO billing_payment_methods (owner_kind, owner_id, payment_method_id, brand, last4, exp_month, exp_year, saved_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING`,
        [ownerKind, ownerId, e.data.id, e.data.brand, e.data.last4, e.data.expMonth, e.data.expYear, e.data.savedAt],
      );
    }
  }

  async reset(tx: EntityManager): Promise<void> {
    await tx.query('DELETE FROM billing_payment_methods');
    await tx.query('DELETE FROM billing_customers');
  }
}
