import { EventStore, LogPosition, RecordedEvent } from '../event-store/event-store';
import { Progress } from './progress';

const BATCH = 2_000;

/**
 * The whole log in order, a batch at a time: the book of record, never a read
 * model. The next batch is asked for before the caller works on this one, so
 * the database reads while the caller folds.
 */
export async function* readWholeLog(store: EventStore, progress?: Progress): AsyncGenerator<RecordedEvent[]> {
  const read = (after?: LogPosition) => store.readAll({ after, maxCount: BATCH });
  let next: Promise<RecordedEvent[]> | null = read();
  while (next) {
    const batch: RecordedEvent[] = await next;
    next = batch.length === BATCH ? read(batch[batch.length - 1].position) : null;
    // A failed read ahead surfaces when it is awaited, not as an unhandled rejection meanwhile.
    next?.catch(() => undefined);
    if (batch.length === 0) break;
    progress?.advance(batch.length);
    yield batch;
  }
  progress?.finish();
}
