import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { Pool } from 'pg';
import { PG_POOL } from '../../database/database.module';

/**
 * How long a request holds its key: longer than a request with its processor
 * calls and their retries can take. A process that dies mid-request leaves
 * its claim behind; retries answer 409 until it lapses.
 */
export const IN_FLIGHT_LEASE_MS = 120_000;

/**
 * Claims on idempotency keys whose request is executing, shared by every
 * instance through PostgreSQL: a second request with the key gets 409 instead
 * of executing beside the first.
 */
@Injectable()
export class InFlightRequests {
  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  /** A claim token, or null when another request holds the key. */
  async claim(scopeKey: string): Promise<string | null> {
    const token = randomUUID();
    const { rowCount } = await this.pool.query(
      `INSERT INTO idempotency_in_flight (scope_key, token, expires_at)
       VALUES ($1, $2, now() + make_interval(secs => $3))
       ON CONFLICT (scope_key) DO UPDATE SET token = excluded.token, expires_at = excluded.expires_at
       WHERE idempotency_in_flight.expires_at < now()`,
      [scopeKey, token, IN_FLIGHT_LEASE_MS / 1000],
    );
    return rowCount === 1 ? token : null;
  }

  async release(scopeKey: string, token: string): Promise<void> {
    await this.pool.query('DELETE FROM idempotency_in_flight WHERE scope_key = $1 AND token = $2', [scopeKey, token]);
  }
}
