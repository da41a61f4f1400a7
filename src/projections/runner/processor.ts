import { SetMetadata } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { RecordedEvent } from '../../event-store/event-store';

/**
 * A projection builds a read model. Its writes and its checkpoint commit in one
 * transaction, so each event takes effect exactly once.
 */
export interface Projection {
  readonly name: string;
  /** The event types it reads; others only move its checkpoint. */
  readonly eventTypes: EventTypes;
  apply(event: RecordedEvent, tx: EntityManager): Promise<void>;
  /** Empties its read model before a rebuild. */
  reset(tx: EntityManager): Promise<void>;
}

/**
 * A process manager (saga) reacts to events with commands or jobs. Its effects
 * leave the database transaction, so a redelivered event must be harmless:
 * derive command and job ids from the event id.
 */
export interface ProcessManager {
  readonly name: string;
  readonly eventTypes: EventTypes;
  handle(event: RecordedEvent): Promise<void>;
}

/** The event types a processor reads, or `'all'`. */
export type EventTypes = readonly string[] | 'all';

export type Processor = { kind: 'projection'; projection: Projection } | { kind: 'process'; process: ProcessManager };

export const PROCESSOR_KIND = 'svc:processor-kind';

/** Marks a provider as a projection for the runner to discover. */
export const AsProjection = () => SetMetadata(PROCESSOR_KIND, 'projection');
/** Marks a provider as a process manager for the runner to discover. */
export const AsProcessManager = () => SetMetadata(PROCESSOR_KIND, 'process');

export function processorName(processor: Processor): string {
  return processor.kind === 'projection' ? processor.projection.name : processor.process.name;
}

export function handlesType(processor: Processor): (type: string) => boolean {
  const types = processor.kind === 'projection' ? processor.projection.eventTypes : processor.process.eventTypes;
  if (types === 'all') return () => true;
  const set = new Set(types);
  return (type) => set.has(type);
}
