import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { EventStore } from '../../../../event-store/event-store';
import { Clock } from '../../../../platform/clock/clock';
import { derivedId } from '../../../../platform/ids';
import { AuthEvents } from '../../events';

const MINUTE_MS = 60_000;

/**
 * What the guard records beside answering: `lastUsedAt` (a TokenUsed event at
 * most once a minute per token, with an id derived from token and minute, so
 * several instances record it once) and failed attempts in `auth_audit`.
 * Neither delays the request.
 */
@Injectable()
export class TokenUsage {
  private readonly logger = new Logger('TokenUsage');
  private readonly lastMinute = new Map<string, number>();

  constructor(
    private readonly store: EventStore,
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {}

  used(tokenId: string): void {
    const now = this.clock.now();
    const minute = Math.floor(now.getTime() / MINUTE_MS);
    if (this.lastMinute.get(tokenId) === minute) return;
    this.lastMinute.set(tokenId, minute);
    if (this.lastMinute.size > 100_000) this.lastMinute.clear();
    this.store
      .append(
        `token-usage-${tokenId}`,
        [
          {
            eventId: derivedId(AuthEvents.TokenUsed, tokenId, String(minute)),
            type: AuthEvents.TokenUsed,
            data: { tokenId, usedAt: now.toISOString() },
          },
        ],
        'any',
      )
      .catch((error) => this.logger.warn(`could not record token use: ${error instanceof Error ? error.message : error}`));
  }

  failed(reason: string, ip: string): void {
    this.dataSource
      .query(`INSERT INTO auth_audit (occurred_at, kind, source, detail) VALUES ($1, 'authentication_failed', 'request', $2)`, [
        this.clock.now(),
        JSON.stringify({ reason, ip }),
      ])
      .catch((error) => this.logger.warn(`could not record a failed attempt: ${error instanceof Error ? error.message : error}`));
  }
}
