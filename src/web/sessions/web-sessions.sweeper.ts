import { randomUUID } from 'node:crypto';
import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';
import { withEventContext } from '../../event-store/event-context';
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
  constructor(
    private readonly queues: Queues,
    private readonly sessions: WebSessions,
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
      for (const session of ended) await this.sessions.retire(session, 'web_session_expired', { swept: true });
      return ended.length;
    });
  }
}
