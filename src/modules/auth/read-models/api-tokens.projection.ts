import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { RecordedEvent } from '../../../event-store/event-store';
import { AsProjection, Projection } from '../../../projections/runner/processor';
import { PolicyEvents } from '../../policies/events';
import { UserEvents } from '../../users/events';
import { ApiTokenEvent } from '../domain/api-token.decider';
import { AuthEvents } from '../events';

/**
 * Builds `api_tokens` from TokenIssued, TokenRevoked and TokenUsed (`lastUsedAt`).
 * UserDeleted revokes every token of the account in the same step, so the
 * guard refuses them as soon as the deletion is answered, before the
 * deletion saga has recorded each TokenRevoked.
 *
 * `token_policies` keeps the name of each spend policy from the policies
 * module's events, for the token list's `policyName`; a deleted policy's row
 * goes, so its tokens keep their `policyId` and show no name.
 */
@Injectable()
@AsProjection()
export class ApiTokensProjection implements Projection {
  readonly name = 'api-tokens';
  readonly eventTypes = [
    AuthEvents.TokenIssued,
    AuthEvents.TokenRevoked,
    AuthEvents.TokenUsed,
    UserEvents.UserDeleted,
    PolicyEvents.SpendPolicyCreated,
    PolicyEvents.SpendPolicyUpdated,
    PolicyEvents.SpendPolicyDeleted,
  ];

  async apply(event: RecordedEvent, tx: EntityManager): Promise<void> {
    if (event.type === PolicyEvents.SpendPolicyCreated || event.type === PolicyEvents.SpendPolicyUpdated) {
      await tx.query(
        `INSERT INTO token_policies (policy_id, name) VALUES ($1, $2)
         ON CONFLICT (policy_id) DO UPDATE SET name = $2`,
        [event.data.policyId, event.data.name],
      );
      return;
    }
    if (event.type === PolicyEvents.SpendPolicyDeleted) {
      await tx.query('DELETE FROM token_policies WHERE policy_id = $1', [event.data.policyId]);
      return;
    }
    if (event.type === UserEvents.UserDeleted) {
      await tx.query('UPDATE api_tokens SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL', [
        event.data.userId,
        event.data.deletedAt,
      ]);
      return;
    }
    if (event.type === AuthEvents.TokenUsed) {
      await tx.query('UPDATE api_tokens SET last_used_at = greatest(last_used_at, $2) WHERE id = $1', [
        event.data.tokenId,
        event.data.usedAt,
      ]);
      return;
    }
    const { type, data } = event as unknown as ApiTokenEvent;
    if (type === AuthEvents.TokenIssued) {
      await tx.query(
        `INSERT INTO api_tokens (id, user_id, name, scopes, token_hash, policy_id, created_at, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [data.tokenId, data.userId, data.name, data.scopes, data.tokenHash, data.policyId, data.issuedAt, data.expiresAt],
      );
    } else if (type === AuthEvents.TokenRevoked) {
      await tx.query('UPDATE api_tokens SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL', [
        data.tokenId,
        data.revokedAt,
      ]);
    }
  }

  async reset(tx: EntityManager): Promise<void> {
    await tx.query('DELETE FROM api_tokens');
    await tx.query('DELETE FROM token_policies');
  }
}
