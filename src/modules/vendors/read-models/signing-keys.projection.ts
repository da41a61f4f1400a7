import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { RecordedEvent } from '../../../event-store/event-store';
import { AsProjection, Projection } from '../../../projections/runner/processor';
import { SIGNING_KEY_EVENT_TYPES, SigningKeyEvent } from '../domain/signing-keys.decider';
import { VendorEvents } from '../events';

/** `vendor_signing_keys` and `vendor_signing_key_log`: every key a vendor registered, and each action on them. */
@Injectable()
@AsProjection()
export class SigningKeysProjection implements Projection {
  readonly name = 'vendor-signing-keys';
  readonly eventTypes = SIGNING_KEY_EVENT_TYPES;

  async apply(event: RecordedEvent, tx: EntityManager): Promise<void> {
    const e = event as unknown as SigningKeyEvent;
    if (e.type === VendorEvents.SigningKeyRevoked) {
      await tx.query(`UPDATE vendor_signing_keys SET status = 'revoked' WHERE vendor_id = $1 AND fingerprint = $2`, [
        e.data.vendorId,
        e.data.fingerprint,
      ]);
      await this.log(tx, e.data.vendorId, 'revoke', e.data.fingerprint, e.data.revokedAt);
      return;
    }
    const at = e.type === VendorEvents.SigningKeyRegistered ? e.data.registeredAt : e.data.rotatedAt;
    await tx.query(`UPDATE vendor_signing_keys SET status = 'retired' WHERE vendor_id = $1 AND status = 'active'`, [
      e.data.vendorId,
    ]);
    await tx.query(
      `INSERT INTO vendor_signing_keys (vendor_id, fingerprint, public_key, algorithm, status, created_at) VALUES ($1, $2, $3, $4, 'active', $5)`,
      [e.data.vendorId, e.data.fingerprint, e.data.publicKey, e.data.algorithm, at],
    );
    await this.log(
      tx,
      e.data.vendorId,
      e.type === VendorEvents.SigningKeyRegistered ? 'register' : 'rotate',
      e.data.fingerprint,
      at,
    );
  }

  private async log(tx: EntityManager, vendorId: string, action: string, fingerprint: string, at: string): Promise<void> {
    await tx.query('INSERT INTO vendor_signing_key_log (vendor_id, action, fingerprint, created_at) VALUES ($1, $2, $3, $4)', [
      vendorId,
      action,
      fingerprint,
      at,
    ]);
  }

  async reset(tx: EntityManager): Promise<void> {
    await tx.query('DELETE FROM vendor_signing_key_log');
    await tx.query('DELETE FROM vendor_signing_keys');
  }
}
