import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { RecordedEvent } from '../../../event-store/event-store';
import { AsProjection, Projection } from '../../../projections/runner/processor';
import { EntitlementGranted, OrderEvent } from '../domain/purchase';
import { PurchasingEvents } from '../events';

/** `orders` and `entitlements`, from the purchasing module's own events (names as they were at purchase time). */
@Injectable()
@AsProjection()
export class PurchasesProjection implements Projection {
  readonly name = 'purchases';
  readonly eventTypes = [
    PurchasingEvents.PurchaseMade,
    PurchasingEvents.OrderCharged,
    PurchasingEvents.OrderPaid,
    PurchasingEvents.OrderPaymentFailed,
    PurchasingEvents.EntitlementGranted,
  ];

  async apply(event: RecordedEvent, tx: EntityManager): Promise<void> {
    const e = event as unknown as OrderEvent | EntitlementGranted;
    switch (e.type) {
      case PurchasingEvents.OrderCharged:
        await tx.query('UPDATE orders SET payment_intent_id = $2 WHERE id = $1', [e.data.orderId, e.data.paymentIntentId]);
        return;
      case PurchasingEvents.OrderPaid:
        await tx.query(`UPDATE orders SET status = 'paid', payment_intent_id = $2 WHERE id = $1`, [
          e.data.orderId,
          e.data.paymentIntentId,
        ]);
        return;
      case PurchasingEvents.OrderPaymentFailed:
        await tx.query(`UPDATE orders SET status = 'failed', payment_intent_id = coalesce($2, payment_intent_id) WHERE id = $1`, [
          e.data.orderId,
          e.data.paymentIntentId,
        ]);
        return;
    }
    if (e.type === PurchasingEvents.PurchaseMade) {
      const d = e.data;
      await tx.query(
        `INSERT INTO orders (id, buyer_kind, buyer_id, user_id, listing_id, release_id, version, vendor_id, vendor_slug, vendor_name,
           listing_slug, listing_title, amount_cents, platform_fee_cents, vendor_net_cents, status, funding_source,
           payment_intent_id, channel, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20)`,
        [
          d.orderId,
          d.buyer.kind,
          d.buyer.id,
          d.userId,
          d.listingId,
          d.releaseId,
          d.version,
          d.vendorId,
          d.vendorSlug,
          d.vendorName,
          d.listingSlug,
          d.listingTitle,
          d.amountCents,
          d.platformFeeCents,
          d.vendorNetCents,
          d.status,
          d.fundingSource,
          d.paymentIntentId,
          d.channel,
          d.madeAt,
        ],
      );
      return;
    }
    const d = e.data;
    await tx.query(
      `INSERT INTO entitlements (id, user_id, listing_id, release_id, order_id, vendor_slug, listing_slug, listing_title, version, granted_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [
        d.entitlementId,
        d.userId,
        d.listingId,
        d.releaseId,
        d.orderId,
        d.vendorSlug,
        d.listingSlug,
        d.listingTitle,
        d.version,
        d.grantedAt,
      ],
    );
  }

  async reset(tx: EntityManager): Promise<void> {
    await tx.query('DELETE FROM entitlements');
    await tx.query('DELETE FROM orders');
  }
}
