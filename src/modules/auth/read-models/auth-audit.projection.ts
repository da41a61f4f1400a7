import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { RecordedEvent } from '../../../event-store/event-store';
import { AsProjection, Projection } from '../../../projections/runner/processor';

const KINDS: Record<string, string> = {
  TokenIssued: 'token_issued',
  TokenRevoked: 'token_revoked',
  DeviceCodeApproved: 'device_approved',
  DeviceCodeDenied: 'device_denied',
  DeviceCodeRedeemed: 'device_sign_in',
};

/** The logged half of `auth_audit`: token issuance and revocation, device approvals, denials and sign-ins. */
@Injectable()
@AsProjection()
export class AuthAuditProjection implements Projection {
  readonly name = 'auth-audit';
  readonly eventTypes = Object.keys(KINDS);

  async apply(event: RecordedEvent, tx: EntityManager): Promise<void> {
    const data = event.data as { userId?: string; tokenId?: string; via?: string; reason?: string; scopes?: string[] };
    const detail = { via: data.via, reason: data.reason, scopes: data.scopes };
    await tx.query(
      `INSERT INTO auth_audit (occurred_at, kind, source, user_id, token_id, event_id, detail)
       VALUES ($1, $2, 'log', $3, $4, $5, $6)`,
      [
        event.metadata.occurredAt,
        KINDS[event.type],
        data.userId ?? null,
        data.tokenId ?? null,
        event.eventId,
        JSON.stringify(detail),
      ],
    );
  }

  async reset(tx: EntityManager): Promise<void> {
    await tx.query(`DELETE FROM auth_audit WHERE source = 'log'`);
  }
}
