import { EventData, RecordedEvent } from './event-store';

/** Turns a stored payload of an older schema version into the current shape. */
export type Upcaster = (data: EventData, storedSchemaVersion: number) => EventData;

export interface EventTypeDeclaration {
  /** The version new events are stored with; bump it when the payload's shape changes, and add an upcaster. */
  schemaVersion: number;
  upcast?: Upcaster;
}

interface Declared extends EventTypeDeclaration {
  module: string;
}

const declared = new Map<string, Declared>();

/** The type names of a catalogue as constants: `AuthEvents.TokenIssued === 'TokenIssued'`. */
export type EventTypeNames<T> = { readonly [K in keyof T]: K };

/**
 * Declares every event type a module appends, in one place per module
 * (`modules/<m>/events.ts`): its stable stored name, its schema version, and the
 * upcaster that brings older shapes up to date. The event store refuses to
 * append a type no catalogue declares, and a test fails when a processor reads one.
 */
export function defineEventCatalogue<const T extends Record<string, EventTypeDeclaration>>(
  module: string,
  types: T,
): EventTypeNames<T> {
  const names = {} as Record<string, string>;
  for (const [type, declaration] of Object.entries(types)) {
    const existing = declared.get(type);
    if (existing && existing.module !== module) {
      throw new Error(`event type ${type} is declared by both ${existing.module} and ${module}`);
    }
    declared.set(type, { ...declaration, module });
    names[type] = type;
  }
  return Object.freeze(names) as EventTypeNames<T>;
}

export const EventCatalogue = {
  isDeclared: (type: string): boolean => declared.has(type),

  schemaVersionOf(type: string): number {
    const declaration = declared.get(type);
    if (!declaration) throw new UndeclaredEventTypeError(type);
    return declaration.schemaVersion;
  },

  /** The module that declares a type, for diagnostics. */
  moduleOf: (type: string): string | undefined => declared.get(type)?.module,

  declaredTypes: (): string[] => [...declared.keys()],

  /** Brings a stored event to its type's current shape. */
  upcast(event: RecordedEvent): RecordedEvent {
    const declaration = declared.get(event.type);
    const stored = event.metadata.schemaVersion ?? 1;
    if (!declaration?.upcast || stored >= declaration.schemaVersion) return event;
    return { ...event, data: declaration.upcast(event.data, stored) };
  },
};

export class UndeclaredEventTypeError extends Error {
  constructor(readonly eventType: string) {
    super(`event type ${eventType} is declared by no module's events.ts`);
    this.name = 'UndeclaredEventTypeError';
  }
}
