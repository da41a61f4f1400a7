import { LogPosition } from './log-position';

export { LogPosition };

/** `no_stream`: the stream must not exist; `exists`: it must; a number: its last revision must be exactly that. */
export type ExpectedState = 'no_stream' | 'any' | 'exists' | number;

export interface EventMetadata {
  correlationId?: string;
  causationId?: string;
  actorUserId?: string;
  tokenId?: string;
  schemaVersion: number;
  occurredAt: string;
}

export type EventData = Record<string, unknown>;

export interface NewEvent<D extends EventData = EventData> {
  /** Supply a deterministic id to make a retried append a no-op. */
  eventId?: string;
  type: string;
  data: D;
  metadata?: Partial<EventMetadata>;
}

export interface RecordedEvent<D extends EventData = EventData> {
  eventId: string;
  type: string;
  streamId: string;
  /** 0-based position of the event inside its stream. */
  revision: number;
  position: LogPosition;
  data: D;
  metadata: EventMetadata;
}

export interface StreamAppend {
  streamId: string;
  events: NewEvent[];
  expected: ExpectedState;
}

export interface AppendResult {
  /** The stream's last revision after the append; pass it as the next `expected`. */
  revision: number;
  /** The log position of the last event appended (or already stored, for a no-op). */
  position: LogPosition;
}

export interface ReadStreamOptions {
  fromRevision?: number;
  maxCount?: number;
}

export interface ReadAllOptions {
  /** Exclusive. Omit to read from the start of the log. */
  after?: LogPosition;
  maxCount: number;
}

export interface SubscribeOptions {
  after?: LogPosition;
  batchSize?: number;
  /** Called with each batch in log order; the next batch waits for it to settle. */
  onEvents: (events: RecordedEvent[]) => Promise<void>;
  /** A rejected `onEvents` or a read failure; the subscription retries the same batch after a pause. */
  onError?: (error: unknown) => void;
}

export interface Subscription {
  stop(): Promise<void>;
}

/** The log: the book of record every read model is rebuilt from. */
export abstract class EventStore {
  abstract append(streamId: string, events: NewEvent[], expected: ExpectedState): Promise<AppendResult>;
  /** Appends to several streams in one transaction: all or none. */
  abstract appendAtomically(appends: StreamAppend[]): Promise<AppendResult[]>;
  abstract readStream(streamId: string, options?: ReadStreamOptions): Promise<RecordedEvent[]>;
  abstract readAll(options: ReadAllOptions): Promise<RecordedEvent[]>;
  abstract subscribe(options: SubscribeOptions): Subscription;
  /** The position of the last event a reader can see, or null for an empty log. */
  abstract headPosition(): Promise<LogPosition | null>;
  abstract ping(): Promise<void>;
  abstract close(): Promise<void>;
}

export class WrongExpectedVersionError extends Error {
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedState,
    /** The stream's last revision, -1 when it does not exist, null when unknown. */
    readonly actual: number | null,
  ) {
    super(`stream ${streamId}: expected ${String(expected)}, actual ${actual === null ? 'unknown' : actual}`);
    this.name = 'WrongExpectedVersionError';
  }
}

export class DuplicateEventIdError extends Error {
  constructor(readonly eventId: string) {
    super(`event ${eventId} is already stored with other content or in another stream`);
    this.name = 'DuplicateEventIdError';
  }
}

/**
 * The log could not be reached, or failed in a way the adapter has no meaning
 * for (a lost connection, a deadline, an unexpected server answer). An append
 * that fails so may or may not have been stored; the caller may retry later.
 */
export class EventStoreUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'EventStoreUnavailableError';
  }
}

/** An event holding text no store can keep (U+0000, a lone surrogate): refused before anything is written. */
export class UnstorableEventError extends Error {
  constructor(
    readonly eventType: string,
    /** Where in the payload, e.g. `name` or `tags[2]`. */
    readonly path: string,
    readonly problem: string,
  ) {
    super(`${path} ${problem}`);
    this.name = 'UnstorableEventError';
  }
}

export function completeMetadata(metadata: Partial<EventMetadata> | undefined, now: Date): EventMetadata {
  return { schemaVersion: 1, ...metadata, occurredAt: metadata?.occurredAt ?? now.toISOString() };
}
