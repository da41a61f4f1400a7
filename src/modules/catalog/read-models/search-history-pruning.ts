import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../../config/app-config';
import { InjectConfig } from '../../../config/config.module';
import { Queues } from '../../../platform/queue/queues';
import { CURSOR_TTL_MS } from '../../../platform/http/cursor-codec';

const QUEUE = 'search-history-pruning';
const EVERY_MS = 15 * 60 * 1000;

/**
 * Deletes ordering history no cursor can still read: a cursor lives an hour,
 * so rows recorded before that (with a margin) are dead weight.
 */
@Injectable()
export class SearchHistoryPruning implements OnApplicationBootstrap {
  constructor(
    private readonly queues: Queues,
    private readonly dataSource: DataSource,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.runProcessors) return;
    this.queues.worker(QUEUE, () => this.runOnce());
    this.queues.repeatEvery(QUEUE, EVERY_MS);
  }

  /** Returns how many rows it deleted. */
  async runOnce(): Promise<number> {
    const [, deleted] = await this.dataSource.query(
      `DELETE FROM listing_search_history WHERE recorded_at < now() - make_interval(secs => $1)`,
      [(2 * CURSOR_TTL_MS) / 1000],
    );
    return deleted;
  }
}
