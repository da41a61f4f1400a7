import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { Clock } from '../../../../platform/clock/clock';
import { ListTokensQuery, TokenListItem } from './list-tokens.query';

/** The caller's active tokens (not revoked, not expired), newest first. */
@QueryHandler(ListTokensQuery)
export class ListTokensHandler implements IQueryHandler<ListTokensQuery, TokenListItem[]> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {}

  async execute(query: ListTokensQuery): Promise<TokenListItem[]> {
    const rows = await this.dataSource.query(
      `SELECT id, name, scopes, policy_id, last_used_at, expires_at, revoked_at, created_at
         FROM api_tokens
        WHERE user_id = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > $2)
        ORDER BY created_at DESC, id`,
      [query.userId, this.clock.now()],
    );
    return rows.map((row: Record<string, unknown>) => toListItem(row));
  }
}

function toListItem(row: Record<string, unknown>): TokenListItem {
  const iso = (value: unknown) => (value ? new Date(value as string).toISOString() : null);
  return {
    id: row.id as string,
    name: row.name as string,
    scopes: row.scopes as string[],
    policyId: (row.policy_id as string | null) ?? null,
    policyName: null, // spend policies arrive with their own issue
    lastUsedAt: iso(row.last_used_at),
    expiresAt: iso(row.expires_at),
    revokedAt: iso(row.revoked_at),
    createdAt: iso(row.created_at)!,
  };
}
