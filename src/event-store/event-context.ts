import { AsyncLocalStorage } from 'node:async_hooks';
import { EventMetadata, RecordedEvent } from './event-store';

/** Who and what caused the events appended inside a unit of work: auditors follow these links. */
export interface EventContext {
  /** One id for a whole chain of work: the request id, or the first event's id. */
  correlationId: string;
  /** The event whose handling appended these, when a process manager did. */
  causationId?: string;
  actorUserId?: string;
  tokenId?: string;
}

const contexts = new AsyncLocalStorage<EventContext>();

/** Runs `work` with `context` stamped on every event it appends. */
export function withEventContext<T>(context: EventContext, work: () => T): T {
  return contexts.run(context, work);
}

/** The context for work caused by `event`: same correlation, the event as cause, the same actor. */
export function contextCausedBy(event: Pick<RecordedEvent, 'eventId' | 'metadata'>): EventContext {
  return {
    correlationId: event.metadata.correlationId ?? event.eventId,
    causationId: event.eventId,
    actorUserId: event.metadata.actorUserId,
    tokenId: event.metadata.tokenId,
  };
}

/** The envelope fields the current context supplies; fields an event sets itself win. */
export function currentContextMetadata(): Partial<EventMetadata> {
  const context = contexts.getStore();
  if (!context) return {};
  const metadata: Partial<EventMetadata> = { correlationId: context.correlationId };
  if (context.causationId) metadata.causationId = context.causationId;
  if (context.actorUserId) metadata.actorUserId = context.actorUserId;
  if (context.tokenId) metadata.tokenId = context.tokenId;
  return metadata;
}
