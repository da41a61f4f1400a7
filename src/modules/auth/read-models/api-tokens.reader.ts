import { Injectable } from '@nestjs/common';
import { PreparedStatements } from '../../../platform/database/prepared-statements';
import { Scope } from '../domain/api-token';

export interface ApiTokenRecord {
  id: string;
  name: string;
  userId: string;
  scopes: Scope[];
  policyId: string | null;
  expiresAt: Date | null;
  revokedAt: Date | null;
}

interface TokenRow {
  id: string;
  name: string;
  user_id: string;
  scopes: Scope[];
  policy_id: string | null;
  expires_at: Date | null;
  revoked_at: Date | null;
}

/** Reads `api_tokens`, the read model ApiTokensProjection builds. */
@Injectable()
export class ApiTokensReader {
  /** Every authenticated request looks its token up: planned once per connection. */
  constructor(private readonly prepared: PreparedStatements) {}

  async findByHash(tokenHash: string): Promise<ApiTokenRecord | null> {
    const [row] = await this.prepared.query<TokenRow>(
      `SELECT id, name, user_id, scopes, policy_id, expires_at, revoked_at FROM api_tokens WHERE token_hash = $1`,
      [tokenHash],
    );
    if (!row) return null;
    return {
      id: row.id,
      name: row.name,
      userId: row.user_id,
      scopes: row.scopes,
      policyId: row.policy_id,
      expiresAt: row.expires_at ? new Date(row.expires_at) : null,
      revokedAt: row.revoked_at ? new Date(row.revoked_at) : null,
    };
  }
}
