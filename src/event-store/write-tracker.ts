import { AsyncLocalStorage } from 'node:async_hooks';
import { LogPosition } from './log-position';

interface WriteContext {
  lastPosition?: LogPosition;
}

const writes = new AsyncLocalStorage<WriteContext>();

/** Runs `work` and reports the furthest log position appended inside it (for read-your-writes). */
export async function trackWrites<T>(work: () => Promise<T>): Promise<{ result: T; lastPosition?: LogPosition }> {
  const context: WriteContext = {};
  const result = await writes.run(context, work);
  return { result, lastPosition: context.lastPosition };
}

export function recordWrite(position: LogPosition): void {
  const context = writes.getStore();
  if (context && (!context.lastPosition || position.isAfter(context.lastPosition))) context.lastPosition = position;
}
