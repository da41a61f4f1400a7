import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { RecordedEvent } from '../../../event-store/event-store';
import { AsProjection, Projection } from '../../../projections/runner/processor';
import { ApprovalEvent } from '../domain/approval';
import { PurchasingEvents } from '../events';

/** `purchase_approvals`: what each policy owner is asked to decide, and what they decided. */
@Injectable()
@AsProjection()
export class ApprovalsProjection implements Projection {
  readonly name = 'purchase-approvals';
  readonly eventTypes = [
    PurchasingEvents.PurchaseApprovalRequested,
    PurchasingEvents.PurchaseApprovalApproved,
    PurchasingEvents.PurchaseApprovalDeclined,
  ];

  async apply(event: RecordedEvent, tx: EntityManager): Promise<void> {
    const e = event as unknown as ApprovalEvent;
    switch (e.type) {
      case PurchasingEvents.PurchaseApprovalRequested: {
        const d = e.data;
        await tx.query(
          `INSERT INTO purchase_approvals (id, owner_id, requester_id, policy_id, status, rule, reason, listing_id, release_id,
             price_cents, use_wallet, listing_title, vendor_slug, version, requested_at, expires_at, token_name)
           VALUES ($1, $2, $3, $4, 'pending', $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)`,
          [
            d.approvalId,
            d.ownerId,
            d.requesterId,
            d.policyId,
            d.rule,
            d.reason,
            d.terms.listingId,
            d.terms.releaseId,
            d.terms.priceCents,
            d.terms.useWallet,
            d.terms.listingTitle,
            d.terms.vendorSlug,
            d.terms.version,
            d.requestedAt,
            d.expiresAt,
            d.tokenName ?? null,
          ],
        );
        return;
      }
      case PurchasingEvents.PurchaseApprovalApproved:
        await tx.query(`UPDATE purchase_approvals SET status = 'approved', order_id = $2 WHERE id = $1`, [
          e.data.approvalId,
          e.data.orderId,
        ]);
        return;
      case PurchasingEvents.PurchaseApprovalDeclined:
        await tx.query(`UPDATE purchase_approvals SET status = 'declined' WHERE id = $1`, [e.data.approvalId]);
        return;
    }
  }

  async reset(tx: EntityManager): Promise<void> {
    await tx.query('DELETE FROM purchase_approvals');
  }
}
