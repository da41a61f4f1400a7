import { EventData, RecordedEvent } from './event-store';

/** Turns a stored payload of an older schema version into the current shape. */
export type Upcaster = (data: EventData, schemaVersion: number) => EventData;

/**
 * Old event shapes are upcast on read, in one place per event type: register
 * the upcaster beside the event's definition; readers only see current shapes.
 */
export class Upcasters {
  private readonly byType = new Map<string, Upcaster>();

  register(type: string, upcaster: Upcaster): void {
    if (this.byType.has(type)) throw new Error(`an upcaster for ${type} is already registered`);
    this.byType.set(type, upcaster);
  }

  apply(event: RecordedEvent): RecordedEvent {
    const upcaster = this.byType.get(event.type);
    return upcaster ? { ...event, data: upcaster(event.data, event.metadata.schemaVersion ?? 1) } : event;
  }
}
