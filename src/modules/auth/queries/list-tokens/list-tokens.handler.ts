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
      `SELECT t.id, t.name, t.scopes, t.policy_id, p.name AS policy_name, t.last_used_at, t.expires_at, t.revoked_at,
              t.created_at
         FROM api_tokens t
         LEFT JOIN token_policies p ON p.policy_id = t.policy_id
        WHERE t.user_id = $1 AND t.revoked_at IS NULL AND (t.expires_at IS NULL OR t.expires_at > $2)
        ORDER BY t.created_at DESC, t.id`,
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
    // Null for a policy deleted since: the token stays bound to it and fails closed.
    policyName: (row.policy_name as string | null) ?? null,
    lastUsedAt: iso(row.last_used_at),
    expiresAt: iso(row.expires_at),
    revokedAt: iso(row.revoked_at),
    createdAt: iso(row.created_at)!,
  };
}
