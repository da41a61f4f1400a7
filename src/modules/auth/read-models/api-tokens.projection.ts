import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { RecordedEvent } from '../../../event-store/event-store';
import { AsProjection, Projection } from '../../../projections/runner/processor';
import { ApiTokenEvent } from '../domain/api-token.decider';

/** Builds `api_tokens` from TokenIssued, TokenRevoked and TokenUsed (`lastUsedAt`). */
@Injectable()
@AsProjection()
export class ApiTokensProjection implements Projection {
  readonly name = 'api-tokens';
  readonly eventTypes = ['TokenIssued', 'TokenRevoked', 'TokenUsed'];

  async apply(event: RecordedEvent, tx: EntityManager): Promise<void> {
    if (event.type === 'TokenUsed') {
      await tx.query('UPDATE api_tokens SET last_used_at = greatest(last_used_at, $2) WHERE id = $1', [
        event.data.tokenId,
        event.data.usedAt,
      ]);
      return;
    }
    const { type, data } = event as unknown as ApiTokenEvent;
    if (type === 'TokenIssued') {
      await tx.query(
        `INSERT INTO api_tokens (id, user_id, name, scopes, token_hash, policy_id, created_at, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [data.tokenId, data.userId, data.name, data.scopes, data.tokenHash, data.policyId, data.issuedAt, data.expiresAt],
      );
    } else if (type === 'TokenRevoked') {
      await tx.query('UPDATE api_tokens SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL', [
        data.tokenId,
        data.revokedAt,
      ]);
    }
  }

  async reset(tx: EntityManager): Promise<void> {
    await tx.query('DELETE FROM api_tokens');
  }
}
