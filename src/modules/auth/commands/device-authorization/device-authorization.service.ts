import { randomBytes, randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../../../config/app-config';
import { InjectConfig } from '../../../../config/config.module';
import { EventStore } from '../../../../event-store/event-store';
import { retryOnConflict } from '../../../../event-store/fold-stream';
import { Clock } from '../../../../platform/clock/clock';
import { DomainError } from '../../../../platform/errors/domain-error';
import { SCOPES } from '../../domain/api-token';
import { decideTokenGrant } from '../issue-token/token-grant';
import {
  decideDeviceCode,
  DEVICE_CODE_LIFETIME_SECONDS,
  DEVICE_POLL_INTERVAL_SECONDS,
  generateUserCode,
  normalizeUserCode,
  pollStatus,
} from '../../domain/device-code.decider';
import { deviceStreamId, loadDeviceCode } from '../../domain/device-code-stream';

/** Tokens from the device flow carry every scope and work for this long. */
export const DEVICE_TOKEN_LIFETIME_DAYS = 90;

export interface DeviceAuthorization {
  deviceCode: string;
  userCode: string;
  verificationUri: string;
  expiresIn: number;
  interval: number;
}

export type DevicePoll =
  { status: 'authorization_pending' | 'expired' } | { status: 'approved'; token: string; tokenType: 'Bearer'; expiresIn: number };

/** The device authorization grant (RFC 8628): start, approve, poll. */
@Injectable()
export class DeviceAuthorizationService {
  private readonly lastPoll = new Map<string, number>();

  constructor(
    private readonly store: EventStore,
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  async start(): Promise<DeviceAuthorization> {
    const deviceCode = randomBytes(32).toString('base64url');
    const userCode = await this.freeUserCode();
    const events = decideDeviceCode(
      { type: 'IssueDeviceCode', userCode, scopes: [...SCOPES], now: this.clock.now() },
      { status: 'none' },
    );
    await this.store.append(deviceStreamId(deviceCode), events, 'no_stream');
    return {
      deviceCode,
      userCode,
      verificationUri: `${this.config.webUrl}/device`,
      expiresIn: DEVICE_CODE_LIFETIME_SECONDS,
      interval: DEVICE_POLL_INTERVAL_SECONDS,
    };
  }

  async approve(userCodeInput: string, userId: string): Promise<void> {
    const userCode = normalizeUserCode(userCodeInput);
    if (!userCode)
      throw new DomainError('invalid', 'userCode must be 8 letters and digits, as shown by the CLI (e.g. BCDF-GHJK)');
    const [row] = await this.dataSource.query(
      `SELECT device_code_hash FROM device_codes WHERE user_code = $1 ORDER BY (status = 'pending') DESC, expires_at DESC LIMIT 1`,
      [userCode],
    );
    if (!row) throw new DomainError('not_found', 'Unknown user code');
    const streamId = `device-${row.device_code_hash}`;
    const { state, revision } = await loadDeviceCode(this.store, streamId);
    const events = decideDeviceCode({ type: 'ApproveDeviceCode', userId, now: this.clock.now() }, state);
    await this.store.append(streamId, events, revision);
  }

  async poll(deviceCode: string): Promise<DevicePoll> {
    const streamId = deviceStreamId(deviceCode);
    const now = this.clock.now();
    this.enforceInterval(streamId, now);
    const tokenId = randomUUID();
    // Minted now, handed out once: the device stream's expected revision lets one poll win.
    return retryOnConflict(async (): Promise<DevicePoll> => {
      const { state, revision } = await loadDeviceCode(this.store, streamId);
      const events = decideDeviceCode({ type: 'PollDeviceCode', newTokenId: tokenId, now }, state);
      const redeemed = events.find((e) => e.type === 'DeviceCodeRedeemed');
      if (!redeemed) {
        const status = pollStatus(state, now);
        return { status: status === 'approved' ? 'expired' : status };
      }
      const grant = await decideTokenGrant(
        this.store,
        {
          tokenId,
          userId: redeemed.data.userId,
          name: 'device sign-in',
          scopes: state.status === 'approved' ? state.scopes : [...SCOPES],
          expiresInDays: DEVICE_TOKEN_LIFETIME_DAYS,
          via: 'device',
        },
        now,
      );
      await this.store.appendAtomically([{ streamId, events, expected: revision }, ...grant.appends]);
      return {
        status: 'approved',
        token: grant.token,
        tokenType: 'Bearer',
        expiresIn: DEVICE_TOKEN_LIFETIME_DAYS * 24 * 60 * 60,
      };
    });
  }

  /**
   * RFC 8628's slow_down, as a 429: a client polling one code faster than the
   * interval is told to wait. Kept per instance (a client spread over several
   * instances can at worst poll once per interval on each).
   */
  private enforceInterval(streamId: string, now: Date): void {
    const last = this.lastPoll.get(streamId);
    if (last !== undefined && now.getTime() - last < DEVICE_POLL_INTERVAL_SECONDS * 1000) {
      throw new DomainError('rate_limited', `slow_down: poll at most every ${DEVICE_POLL_INTERVAL_SECONDS} seconds`);
    }
    this.lastPoll.set(streamId, now.getTime());
    if (this.lastPoll.size > 100_000) {
      const horizon = now.getTime() - DEVICE_CODE_LIFETIME_SECONDS * 1000;
      for (const [key, at] of this.lastPoll) if (at < horizon) this.lastPoll.delete(key);
    }
  }

  /** User codes are short: draw again in the (rare) case one is still waiting elsewhere. */
  private async freeUserCode(): Promise<string> {
    for (;;) {
      const code = generateUserCode(randomBytes);
      const [taken] = await this.dataSource.query(
        `SELECT 1 FROM device_codes WHERE user_code = $1 AND status = 'pending' AND expires_at > $2`,
        [code, this.clock.now()],
      );
      if (!taken) return code;
    }
  }
}
