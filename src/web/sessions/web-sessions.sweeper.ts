import { randomUUID } from 'node:crypto';
import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';
import { withEventContext } from '../../event-store/event-context';
import { RevokeTokenCommand } from '../../modules/auth/commands/revoke-token/revoke-token.command';
import { Clock } from '../../platform/clock/clock';
import { Queues } from '../../platform/queue/queues';
import { WebSessions } from './web-sessions';

const QUEUE = 'web-session-sweep';
const SWEEP_EVERY_MS = 5 * 60_000;

/**
 * Ends idle web sessions and revokes their API tokens on a schedule: idle expiry otherwise takes
 * effect only when the cookie comes back, and an abandoned browser never brings it. One BullMQ job
 * scheduler, so several instances still sweep once per round.
 */
@Injectable()
export class WebSessionsSweeper implements OnApplicationBootstrap {
  private readonly logger = new Logger(WebSessionsSweeper.name);

  constructor(
    private readonly queues: Queues,
    private readonly sessions: WebSessions,
    private readonly commands: CommandBus,
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.runProcessors) return;
    this.queues.worker(QUEUE, (job) => this.runOnce(job.id));
    this.queues.repeatEvery(QUEUE, SWEEP_EVERY_MS);
  }

  /** One sweep; answers how many sessions it ended. */
  async runOnce(roundId: string = randomUUID()): Promise<number> {
    return withEventContext({ correlationId: roundId }, async () => {
      const ended = await this.sessions.sweep();
      for (const { userId, tokenId } of ended) {
        try {
          await this.commands.execute(new RevokeTokenCommand(tokenId, userId));
        } catch (error) {
          // Already revoked, or the account is gone: nothing left to do.
          this.logger.debug(`could not revoke web session token ${tokenId}: ${(error as Error).message}`);
        }
        await this.dataSource
          .query(`INSERT INTO auth_audit (occurred_at, kind, source, user_id, detail) VALUES ($1, $2, 'request', $3, $4)`, [
            this.clock.now(),
            'web_session_expired',
            userId,
            JSON.stringify({ swept: true }),
          ])
          .catch(() => undefined);
      }
      return ended.length;
    });
  }
}
