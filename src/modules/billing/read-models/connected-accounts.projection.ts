import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { RecordedEvent } from '../../../event-store/event-store';
import { AsProjection, Projection } from '../../../projections/runner/processor';
import { ConnectedAccountEvent } from '../domain/connected-account.decider';
import { BillingEvents } from '../events';

/** `billing_connected_accounts`: each vendor's connected account and whether its onboarding is complete. */
@Injectable()
@AsProjection()
export class ConnectedAccountsProjection implements Projection {
  readonly name = 'connected-accounts';
  readonly eventTypes = [BillingEvents.ConnectedAccountCreated, BillingEvents.ConnectedAccountUpdated];

  async apply(event: RecordedEvent, tx: EntityManager): Promise<void> {
    const e = event as unknown as ConnectedAccountEvent;
    if (e.type === BillingEvents.ConnectedAccountCreated) {
      const d = e.data;
      await tx.query(
        `INSERT INTO billing_connected_accounts (vendor_id, account_id, created_at, updated_at) VALUES ($1, $2, $3, $3)
         ON CONFLICT (vendor_id) DO NOTHING`,
        [d.vendorId, d.accountId, d.createdAt],
      );
    } else if (e.type === BillingEvents.ConnectedAccountUpdated) {
      const d = e.data;
      await tx.query(
        `INSERT INTO billing_connected_accounts
           (vendor_id, account_id, charges_enabled, details_submitted, onboarding_complete, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $6)
         ON CONFLICT (vendor_id) DO UPDATE
           SET charges_enabled = $3, details_submitted = $4, onboarding_complete = $5, updated_at = $6`,
        [d.vendorId, d.accountId, d.chargesEnabled, d.detailsSubmitted, d.onboardingComplete, d.recordedAt],
      );
    }
  }

  async reset(tx: EntityManager): Promise<void> {
    await tx.query('DELETE FROM billing_connected_accounts');
  }
}
