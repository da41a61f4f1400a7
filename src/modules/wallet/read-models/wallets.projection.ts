import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { RecordedEvent } from '../../../event-store/event-store';
import { AsProjection, Projection } from '../../../projections/runner/processor';
import { DEFAULT_AUTO_TOP_UP, WalletEvent } from '../domain/wallet.decider';
import { walletOwnerOf } from '../domain/wallet-owner';
import { WalletEvents } from '../events';

export type TransactionType = 'top_up' | 'purchase' | 'refund' | 'auto_top_up' | 'metered_usage';

/** A money event as a line of the wallet's statement; null for events that move no money. */
function transactionOf(
  e: WalletEvent,
): { type: TransactionType; amountCents: number; balanceAfterCents: number; description: string; at: string } | null {
  switch (e.type) {
    case WalletEvents.WalletToppedUp:
      return {
        type: e.data.source,
        amountCents: e.data.amountCents,
        balanceAfterCents: e.data.balanceAfterCents,
        description: e.data.source === 'auto_top_up' ? 'Automatic top-up' : 'Wallet top-up',
        at: e.data.toppedUpAt,
      };
    case WalletEvents.WalletDebited:
      return { type: e.data.reason, ...e.data, at: e.data.debitedAt };
    case WalletEvents.WalletCredited:
      return { type: 'refund', ...e.data, at: e.data.creditedAt };
    default:
      return null;
  }
}

/**
 * `wallets` (balance and auto top-up settings) and `wallet_transactions` (the
 * statement). What callers see; decisions never read it, they fold the stream.
 */
@Injectable()
@AsProjection()
export class WalletsProjection implements Projection {
  readonly name = 'wallets';
  readonly eventTypes = [
    WalletEvents.WalletToppedUp,
    WalletEvents.WalletDebited,
    WalletEvents.WalletCredited,
    WalletEvents.AutoTopUpConfigured,
  ];

  async apply(event: RecordedEvent, tx: EntityManager): Promise<void> {
    const owner = walletOwnerOf(event.streamId);
    if (!owner) return;
    const e = event as unknown as WalletEvent;
    if (e.type === WalletEvents.AutoTopUpConfigured) {
      await tx.query(
        `INSERT INTO wallets (owner_kind, owner_id, auto_top_up_enabled, auto_top_up_threshold_cents, auto_top_up_amount_cents, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (owner_kind, owner_id) DO UPDATE SET auto_top_up_enabled = $3, auto_top_up_threshold_cents = $4,
           auto_top_up_amount_cents = $5, updated_at = $6`,
        [owner.kind, owner.id, e.data.enabled, e.data.thresholdCents, e.data.amountCents, e.data.configuredAt],
      );
      return;
    }
    const line = transactionOf(e);
    if (!line) return;
    await tx.query(
      `INSERT INTO wallets (owner_kind, owner_id, balance_cents, auto_top_up_threshold_cents, auto_top_up_amount_cents, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (owner_kind, owner_id) DO UPDATE SET balance_cents = $3, updated_at = $6`,
      [
        owner.kind,
        owner.id,
        line.balanceAfterCents,
        DEFAULT_AUTO_TOP_UP.thresholdCents,
        DEFAULT_AUTO_TOP_UP.amountCents,
        line.at,
      ],
    );
    await tx.query(
      `INSERT INTO wallet_transactions (id, owner_kind, owner_id, revision, type, amount_cents, balance_after_cents, description, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [
        event.eventId,
        owner.kind,
        owner.id,
        event.revision,
        line.type,
        line.amountCents,
        line.balanceAfterCents,
        line.description,
        line.at,
      ],
    );
  }

  async reset(tx: EntityManager): Promise<void> {
    await tx.query('DELETE FROM wallet_transactions');
    await tx.query('DELETE FROM wallets');
  }
}
