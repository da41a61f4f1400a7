import { randomUUID } from 'node:crypto';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { EventStore } from '../../../../event-store/event-store';
import { retryOnConflict } from '../../../../event-store/fold-stream';
import { Clock } from '../../../../platform/clock/clock';
import { DomainError } from '../../../../platform/errors/domain-error';
import { SCOPES } from '../../domain/api-token';
import {
  decideDeviceCode,
  DEVICE_CODE_LIFETIME_SECONDS,
  DEVICE_POLL_INTERVAL_SECONDS,
  pollStatus,
} from '../../domain/device-code.decider';
import { deviceStreamId, loadDeviceCode } from '../../domain/device-code-stream';
import { decideTokenGrant } from '../issue-token/token-grant';
import { DevicePoll, PollDeviceCodeCommand } from './poll-device-code.command';

/** Tokens from the device flow work for this long. */
export const DEVICE_TOKEN_LIFETIME_DAYS = 90;

@CommandHandler(PollDeviceCodeCommand)
export class PollDeviceCodeHandler implements ICommandHandler<PollDeviceCodeCommand, DevicePoll> {
  private readonly lastPoll = new Map<string, number>();

  constructor(
    private readonly store: EventStore,
    private readonly clock: Clock,
  ) {}

  async execute({ deviceCode }: PollDeviceCodeCommand): Promise<DevicePoll> {
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
          scopes: state.status === 'approved' ? state.scopes : [],
          notAfter: state.status === 'approved' && state.notAfter ? new Date(state.notAfter) : null,
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
        expiresIn: Math.round((Date.parse(grant.issued.expiresAt!) - now.getTime()) / 1000),
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
}
