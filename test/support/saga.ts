import { EventData, EventMetadata, RecordedEvent } from '../../src/event-store/event-store';
import { LogPosition } from '../../src/event-store/log-position';
import { Reaction, Saga } from '../../src/sagas/kit/saga';

let nextPosition = 1n;

/** A stored event as a saga receives it, for given/when/then tests. */
export function recorded<D extends EventData>(
  type: string,
  data: D,
  options: { eventId?: string; streamId?: string; revision?: number; metadata?: Partial<EventMetadata> } = {},
): RecordedEvent<D> {
  const position = nextPosition++;
  return {
    eventId: options.eventId ?? `00000000-0000-4000-8000-${position.toString(16).padStart(12, '0')}`,
    type,
    streamId: options.streamId ?? `test-${position}`,
    revision: options.revision ?? 0,
    position: new LogPosition(position, position),
    data,
    metadata: { schemaVersion: 1, occurredAt: '2026-11-22T10:00:00.000Z', ...options.metadata },
  };
}

/**
 * given/when/then over a saga's pure half: `when(event)` is the reaction it
 * decides (commands, then jobs). A saga built for this needs no bus or queue:
 * `react` never touches them.
 */
export function whenSaga(saga: Saga) {
  return {
    receives(event: RecordedEvent): Reaction {
      return saga.react(event);
    },
  };
}
