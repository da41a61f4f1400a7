import { EventData, RecordedEvent } from './event-store';

/**
 * The in-process face of a stored event type, for `@EventsHandler(...)`.
 * Handlers are matched by the stored type name, never by class identity, so
 * renaming a class cannot orphan stored events.
 */
export interface StoredEventClass<D extends EventData = EventData> {
  readonly eventType: string;
  new (event: RecordedEvent<D>): StoredEventMessage<D>;
}

export interface StoredEventMessage<D extends EventData = EventData> {
  readonly event: RecordedEvent<D>;
}

const classes = new Map<string, StoredEventClass>();

/** Declares the message class for a stored event type: `export const TokenRevoked = storedEvent<{...}>('TokenRevoked')`. */
export function storedEvent<D extends EventData>(type: string): StoredEventClass<D> {
  const existing = classes.get(type);
  if (existing) return existing as unknown as StoredEventClass<D>;
  const cls = class {
    static readonly eventType = type;
    constructor(readonly event: RecordedEvent<D>) {}
  };
  Object.defineProperty(cls, 'name', { value: type });
  classes.set(type, cls as unknown as StoredEventClass);
  return cls as unknown as StoredEventClass<D>;
}

export function storedEventClass(type: string): StoredEventClass | undefined {
  return classes.get(type);
}

export const storedEventIdProvider = {
  getEventId: (eventClass: unknown): string | null => (eventClass as Partial<StoredEventClass> | undefined)?.eventType ?? null,
};
