import { randomUUID } from 'node:crypto';
import {
  ANY,
  AppendStreamState,
  AllStreamResolvedEvent,
  BACKWARDS,
  CurrentStreamState,
  END,
  EventData as KurrentEventData,
  excludeSystemEvents,
  FORWARDS,
  jsonEvent,
  KurrentDBClient,
  NO_STREAM,
  RecordedEvent as KurrentRecordedEvent,
  START,
  STREAM_EXISTS,
  StreamNotFoundError,
  WrongExpectedVersionError as KurrentWrongExpectedVersion,
} from '@kurrent/kurrentdb-client';
import {
  AppendResult,
  completeMetadata,
  EventMetadata,
  EventStore,
  EventStoreUnavailableError,
  ExpectedState,
  LogPosition,
  NewEvent,
  ReadAllOptions,
  ReadStreamOptions,
  RecordedEvent,
  StreamAppend,
  SubscribeOptions,
  Subscription,
  WrongExpectedVersionError,
} from '../event-store';
import { WakeSignal } from '../wake-signal';

const RESUBSCRIBE_PAUSE_MS = 1_000;

/** The client asks the server once per connection (ServerFeatures) and keeps the answer behind a protected getter. */
interface WithServerFeatures {
  readonly capabilities: Promise<{ serverVersion?: unknown } | undefined>;
}

/**
 * The event store on KurrentDB (the EventStoreDB successor), through
 * `@kurrent/kurrentdb-client`. Appends to several streams are atomic through
 * `multiStreamAppend`, which needs KurrentDB 25.1 or later (checked at boot,
 * see `serverVersion`).
 *
 * Where it differs from the PostgreSQL store:
 * - Idempotency by event id is KurrentDB's: retrying an append with the same
 *   ids and the same expectation is a no-op, but an id is unique only within
 *   the write it belongs to. Reusing one in another stream stores a second
 *   event instead of raising DuplicateEventIdError, and an `any` retry is
 *   recognised only while the server still remembers the ids.
 * - One atomic append may name a stream only once, and the server compares
 *   stream names case-insensitively for that rule.
 * - Every stream of an atomic append reports the transaction's commit position.
 * - Errors other than a failed expectation, including a lost connection or a
 *   deadline, surface as EventStoreUnavailableError.
 */
export class EventStoreDbEventStore extends EventStore {
  private readonly client: KurrentDBClient;

  constructor(
    connectionString: string,
    private readonly now: () => Date = () => new Date(),
  ) {
    super();
    this.client = KurrentDBClient.connectionString(connectionString);
  }

  /** The version the server reports ("25.1.0"), or "unknown" from one too old to say. */
  async serverVersion(): Promise<string> {
    try {
      const features = await (this.client as unknown as WithServerFeatures).capabilities;
      if (typeof features?.serverVersion !== 'string') throw new Error('the client did not report a server version');
      return features.serverVersion;
    } catch (error) {
      throw unavailable('read the server version', error);
    }
  }

  async append(streamId: string, events: NewEvent[], expected: ExpectedState): Promise<AppendResult> {
    const occurredAt = this.now();
    try {
      const result = await this.client.appendToStream(
        streamId,
        events.map((e) => toEventData(e, occurredAt)),
        { streamState: toStreamState(expected) },
      );
      const position = result.position ?? { commit: 0n, prepare: 0n };
      return { revision: Number(result.nextExpectedRevision), position: new LogPosition(position.commit, position.prepare) };
    } catch (error) {
      throw translate(error, 'append', [{ streamId, expected }]);
    }
  }

  async appendAtomically(appends: StreamAppend[]): Promise<AppendResult[]> {
    if (appends.length === 0) return [];
    if (appends.length === 1) return [await this.append(appends[0].streamId, appends[0].events, appends[0].expected)];
    const occurredAt = this.now();
    try {
      const result = await this.client.multiStreamAppend(
        appends.map((a) => ({
          streamName: a.streamId,
          expectedState: toStreamState(a.expected),
          events: a.events.map((e) => toEventData(e, occurredAt)),
        })),
      );
      // The server reports one position for the whole transaction.
      const position = new LogPosition(result.position, result.position);
      const revisions = new Map(result.responses.map((r) => [r.streamName, r.revision]));
      return appends.map((a) => {
        const revision = revisions.get(a.streamId);
        if (revision === undefined)
          throw new EventStoreUnavailableError(`KurrentDB did not report the revision of ${a.streamId}`);
        return { revision: Number(revision), position };
      });
    } catch (error) {
      throw translate(error, 'append atomically', appends);
    }
  }

  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const events: RecordedEvent[] = [];
    try {
      const read = this.client.readStream(streamId, {
        fromRevision: BigInt(options.fromRevision ?? 0),
        direction: FORWARDS,
        maxCount: options.maxCount ?? Number.MAX_SAFE_INTEGER,
      });
      for await (const resolved of read) if (resolved.event) events.push(toRecordedEvent(resolved.event));
    } catch (error) {
      if (error instanceof StreamNotFoundError) return [];
      throw translate(error, 'read a stream');
    }
    return events;
  }

  async readAll(options: ReadAllOptions): Promise<RecordedEvent[]> {
    const events: RecordedEvent[] = [];
    const after = options.after;
    try {
      // Reads from a position include it; ask for one more and drop it.
      const read = this.client.readAll({
        fromPosition: after ? { commit: after.commit, prepare: after.prepare } : START,
        direction: FORWARDS,
        maxCount: options.maxCount + (after ? 1 : 0),
        filter: excludeSystemEvents(),
      });
      for await (const resolved of read) {
        const recorded = fromAll(resolved);
        if (!recorded || (after && !recorded.position.isAfter(after))) continue;
        events.push(recorded);
        if (events.length >= options.maxCount) break;
      }
    } catch (error) {
      throw translate(error, 'read the log');
    }
    return events;
  }

  /**
   * A catch-up subscription to $all, system events filtered out by the server.
   * After a failure (the server, or the consumer) it pauses and subscribes
   * again from the last event the consumer accepted, so the batch that failed
   * is delivered again. That position is what the runner stores as its checkpoint.
   */
  subscribe(options: SubscribeOptions): Subscription {
    let after = options.after;
    let stopped = false;
    let current: { unsubscribe(): Promise<void> } | undefined;
    const stopSignal = new WakeSignal();
    const loop = (async () => {
      while (!stopped) {
        try {
          const subscription = this.client.subscribeToAll({
            fromPosition: after ? { commit: after.commit, prepare: after.prepare } : START,
            filter: excludeSystemEvents(),
          });
          current = subscription;
          try {
            for await (const resolved of subscription as AsyncIterable<AllStreamResolvedEvent>) {
              const recorded = fromAll(resolved);
              if (!recorded || (after && !recorded.position.isAfter(after))) continue;
              // The server pushes events one by one; they are handed over singly, in order.
              await options.onEvents([recorded]);
              after = recorded.position;
            }
          } finally {
            await subscription.unsubscribe().catch(() => undefined);
          }
        } catch (error) {
          if (!stopped) options.onError?.(error);
        }
        if (!stopped) await stopSignal.wait(RESUBSCRIBE_PAUSE_MS);
      }
    })();
    return {
      async stop() {
        stopped = true;
        stopSignal.notify();
        await current?.unsubscribe().catch(() => undefined);
        await loop;
      },
    };
  }

  async headPosition(): Promise<LogPosition | null> {
    try {
      const read = this.client.readAll({ fromPosition: END, direction: BACKWARDS, maxCount: 1, filter: excludeSystemEvents() });
      for await (const resolved of read) {
        const recorded = fromAll(resolved);
        if (recorded) return recorded.position;
      }
    } catch (error) {
      throw translate(error, 'read the head of the log');
    }
    return null;
  }

  async ping(): Promise<void> {
    try {
      for await (const _ of this.client.readAll({ fromPosition: END, direction: BACKWARDS, maxCount: 1 })) break;
    } catch (error) {
      throw translate(error, 'answer a ping');
    }
  }

  async close(): Promise<void> {
    await this.client.dispose();
  }
}

function toStreamState(expected: ExpectedState): AppendStreamState {
  if (expected === 'any') return ANY;
  if (expected === 'no_stream') return NO_STREAM;
  if (expected === 'exists') return STREAM_EXISTS;
  return BigInt(expected);
}

function fromStreamState(state: AppendStreamState): ExpectedState {
  if (state === ANY) return 'any';
  if (state === NO_STREAM) return 'no_stream';
  if (state === STREAM_EXISTS) return 'exists';
  return Number(state);
}

/** The stream's last revision, -1 when it does not exist, null when the server did not say. */
function actualRevision(state: CurrentStreamState | undefined): number | null {
  if (typeof state === 'bigint') return Number(state);
  return state === NO_STREAM ? -1 : null;
}

function toEventData(event: NewEvent, occurredAt: Date): KurrentEventData {
  return jsonEvent({
    id: event.eventId ?? randomUUID(),
    type: event.type,
    data: event.data,
    metadata: toStoredMetadata(completeMetadata(event.metadata, occurredAt)),
  });
}

/**
 * Metadata is stored with string values on both append paths: multi-stream
 * appends accept nothing else, and one stored shape keeps reading simple.
 */
function toStoredMetadata(metadata: EventMetadata): Record<string, string> {
  const stored: Record<string, string> = {};
  for (const [key, value] of Object.entries(metadata)) if (value !== undefined && value !== null) stored[key] = String(value);
  return stored;
}

/** Drops the server's own `$` properties (`$schema.name`...) and restores the number. */
function fromStoredMetadata(stored: unknown): EventMetadata {
  const fields: Record<string, unknown> = {};
  if (stored && typeof stored === 'object' && !(stored instanceof Uint8Array))
    for (const [key, value] of Object.entries(stored)) if (!key.startsWith('$')) fields[key] = value;
  return { ...fields, schemaVersion: Number(fields.schemaVersion ?? 1) } as EventMetadata;
}

function fromAll(resolved: AllStreamResolvedEvent): RecordedEvent | null {
  const event = resolved.event;
  if (!event || event.type.startsWith('$') || event.streamId.startsWith('$')) return null;
  return toRecordedEvent(event);
}

function toRecordedEvent(event: KurrentRecordedEvent): RecordedEvent {
  const position = event.position ?? { commit: 0n, prepare: 0n };
  return {
    eventId: event.id,
    type: event.type,
    streamId: event.streamId,
    revision: Number(event.revision),
    position: new LogPosition(position.commit, position.prepare),
    data: event.data as RecordedEvent['data'],
    metadata: fromStoredMetadata(event.metadata),
  };
}

/** Our error for a failed expectation; anything else the client raised becomes EventStoreUnavailableError. */
function translate(error: unknown, operation: string, appends: { streamId: string; expected: ExpectedState }[] = []): Error {
  if (error instanceof WrongExpectedVersionError || error instanceof EventStoreUnavailableError) return error;
  if (error instanceof KurrentWrongExpectedVersion) {
    const append = appends.length === 1 ? appends[0] : appends.find((a) => a.streamId === error.streamName);
    return new WrongExpectedVersionError(
      append?.streamId ?? error.streamName,
      append?.expected ?? fromStreamState(error.expectedState),
      actualRevision(error.actualState),
    );
  }
  return unavailable(operation, error);
}

function unavailable(operation: string, error: unknown): EventStoreUnavailableError {
  const reason = error instanceof Error ? error.message : String(error);
  return new EventStoreUnavailableError(`KurrentDB could not ${operation}: ${reason}`, { cause: error });
}
