import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { RecordedEvent } from '../../../event-store/event-store';
import { AsProjection, Projection } from '../../../projections/runner/processor';
import { DeviceCodeEvent } from '../domain/device-code.decider';
import { AuthEvents } from '../events';

/** `device_codes`: which device code a user code belongs to, while it waits. */
@Injectable()
@AsProjection()
export class DeviceCodesProjection implements Projection {
  readonly name = 'device-codes';
  readonly eventTypes = [
    AuthEvents.DeviceCodeIssued,
    AuthEvents.DeviceCodeApproved,
    AuthEvents.DeviceCodeDenied,
    AuthEvents.DeviceCodeRedeemed,
  ];

  async apply(event: RecordedEvent, tx: EntityManager): Promise<void> {
    const { type, data } = event as unknown as DeviceCodeEvent;
    const hash = event.streamId.slice('device-'.length);
    if (type === AuthEvents.DeviceCodeIssued) {
      // A user code still pending elsewhere has expired by now; retire it.
      await tx.query(`UPDATE device_codes SET status = 'expired' WHERE user_code = $1 AND status = 'pending'`, [data.userCode]);
      await tx.query(
        `INSERT INTO device_codes (device_code_hash, user_code, status, expires_at) VALUES ($1, $2, 'pending', $3)`,
        [hash, data.userCode, data.expiresAt],
      );
    } else {
      const status = { DeviceCodeApproved: 'approved', DeviceCodeDenied: 'denied', DeviceCodeRedeemed: 'redeemed' }[type];
      await tx.query('UPDATE device_codes SET status = $2 WHERE device_code_hash = $1', [hash, status]);
    }
  }

  async reset(tx: EntityManager): Promise<void> {
    await tx.query('DELETE FROM device_codes');
  }
}
