import { AsyncLocalStorage } from 'node:async_hooks';
import { LogPosition } from './log-position';

interface WriteContext {
  lastPosition?: LogPosition;
  eventTypes: Set<string>;
}

const writes = new AsyncLocalStorage<WriteContext>();

export interface TrackedWrites<T> {
  result: T;
  /** The furthest log position appended inside the work (or that a no-op decision rested on), if any. */
  lastPosition?: LogPosition;
  eventTypes: Set<string>;
}

/** Runs `work` and reports what it appended to the log (for read-your-writes). */
export async function trackWrites<T>(work: () => Promise<T>): Promise<TrackedWrites<T>> {
  const context: WriteContext = { eventTypes: new Set() };
  const result = await writes.run(context, work);
  return { result, lastPosition: context.lastPosition, eventTypes: context.eventTypes };
}

/**
 * Like trackWrites, but a failure is reported too (as `failure`), with what
 * the work appended before it failed: a refusal that still wrote (a declined
 * card fails its order) must be readable before it is answered.
 */
export async function trackWritesSettled<T>(
  work: () => Promise<T>,
): Promise<TrackedWrites<T | undefined> & { failure?: { error: unknown } }> {
  const context: WriteContext = { eventTypes: new Set() };
  try {
    const result = await writes.run(context, work);
    return { result, lastPosition: context.lastPosition, eventTypes: context.eventTypes };
  } catch (error) {
    return { result: undefined, failure: { error }, lastPosition: context.lastPosition, eventTypes: context.eventTypes };
  }
}

/**
 * The request's answer rests on events already in the log that it did not append (a decision that found
 * nothing to change, because another request had made it): they are waited for as its own writes are.
 */
export function recordRead(position: LogPosition, eventTypes: string[]): void {
  recordWrite(position, eventTypes);
}

export function recordWrite(position: LogPosition, eventTypes: string[]): void {
  const context = writes.getStore();
  if (!context) return;
  for (const type of eventTypes) context.eventTypes.add(type);
  if (!context.lastPosition || position.isAfter(context.lastPosition)) context.lastPosition = position;
}

/** What the current request has appended so far (for a handler that reads its own write before answering). */
export function writesSoFar(): { lastPosition?: LogPosition; eventTypes: Set<string> } {
  const context = writes.getStore();
  return { lastPosition: context?.lastPosition, eventTypes: context?.eventTypes ?? new Set() };
}
