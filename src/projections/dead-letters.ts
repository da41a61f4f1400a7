import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { contextCausedBy, withEventContext } from '../event-store/event-context';
import { EventStore } from '../event-store/event-store';
import { ProcessorsService } from './processors.service';
import { processorName } from './runner/processor';

export interface DeadLetter {
  processor: string;
  eventId: string;
  eventType: string;
  streamId: string | null;
  revision: number | null;
  error: string;
  attempts: number;
  failedAt: string;
}

export interface RetryOutcome {
  letter: DeadLetter;
  retried: boolean;
  error?: string;
}

/**
 * Events a processor gave up on, for the operator: list them, and after a fix
 * retry them. A retried event is applied as it is now in the log; a projection
 * applies it and forgets the letter in one transaction, so it takes effect once.
 */
@Injectable()
export class DeadLetters {
  constructor(
    private readonly dataSource: DataSource,
    private readonly store: EventStore,
    private readonly processors: ProcessorsService,
  ) {}

  async list(processor?: string): Promise<DeadLetter[]> {
    const rows = await this.dataSource.query(
      `SELECT processor, event_id, event_type, stream_id, revision, error, attempts, failed_at FROM processor_dead_letters
        WHERE $1::text IS NULL OR processor = $1 ORDER BY failed_at`,
      [processor ?? null],
    );
    return rows.map((row: Record<string, unknown>): DeadLetter => ({
      processor: row.processor as string,
      eventId: row.event_id as string,
      eventType: row.event_type as string,
      streamId: row.stream_id as string | null,
      revision: row.revision === null ? null : Number(row.revision),
      error: row.error as string,
      attempts: row.attempts as number,
      failedAt: new Date(row.failed_at as string).toISOString(),
    }));
  }

  async retry(processor?: string): Promise<RetryOutcome[]> {
    const outcomes: RetryOutcome[] = [];
    for (const letter of await this.list(processor)) outcomes.push(await this.retryOne(letter));
    return outcomes;
  }

  private async retryOne(letter: DeadLetter): Promise<RetryOutcome> {
    const target = this.processors.processors.find((p) => processorName(p) === letter.processor);
    if (!target) return { letter, retried: false, error: 'no such processor in this version' };
    if (letter.streamId === null || letter.revision === null)
      return { letter, retried: false, error: 'parked before events were addressed; rebuild the projection instead' };
    const [event] = await this.store.readStream(letter.streamId, { fromRevision: letter.revision, maxCount: 1 });
    if (!event || event.eventId !== letter.eventId) return { letter, retried: false, error: 'the event is not in the log' };
    const forget = 'DELETE FROM processor_dead_letters WHERE processor = $1 AND event_id = $2';
    try {
      if (target.kind === 'projection') {
        await this.dataSource.transaction(async (tx) => {
          await target.projection.apply(event, tx);
          await tx.query(forget, [letter.processor, letter.eventId]);
        });
      } else {
        await withEventContext(contextCausedBy(event), () => target.process.handle(event));
        await this.dataSource.query(forget, [letter.processor, letter.eventId]);
      }
      return { letter, retried: true };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      await this.dataSource.query(
        'UPDATE processor_dead_letters SET error = $3, attempts = attempts + 1, failed_at = now() WHERE processor = $1 AND event_id = $2',
        [letter.processor, letter.eventId, message],
      );
      return { letter, retried: false, error: message };
    }
  }
}
