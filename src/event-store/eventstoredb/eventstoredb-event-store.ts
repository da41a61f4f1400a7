import { randomUUID } from 'node:crypto';
import {
  ANY,
  AppendExpectedRevision,
  BACKWARDS,
  END,
  EventStoreDBClient,
  excludeSystemEvents,
  FORWARDS,
  jsonEvent,
  NO_STREAM,
  START,
  STREAM_EXISTS,
  StreamNotFoundError,
  WrongExpectedVersionError as EsdbWrongExpectedVersion,
} from '@eventstore/db-client';
import {
  AppendResult,
  AtomicAppendUnsupportedError,
  completeMetadata,
  EventStore,
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

interface EsdbRecorded {
  id: string;
  type: string;
  streamId: string;
  revision: bigint;
  data: unknown;
  metadata: unknown;
  position?: { commit: bigint; prepare: bigint };
}

/**
 * The event store on EventStoreDB / KurrentDB. It cannot append to several
 * streams in one transaction: multi-stream processes there rely on a single
 * deciding append plus an idempotent process manager (deterministic event ids),
 * which is why `appendAtomically` refuses more than one stream.
 */
export class EventStoreDbEventStore extends EventStore {
  private readonly client: EventStoreDBClient;

  constructor(
    connectionString: string,
    private readonly now: () => Date = () => new Date(),
  ) {
    super();
    this.client = EventStoreDBClient.connectionString(connectionString);
  }

  async append(streamId: string, events: NewEvent[], expected: ExpectedState): Promise<AppendResult> {
    const occurredAt = this.now();
    try {
      const result = await this.client.appendToStream(
        streamId,
        events.map((e) =>
          jsonEvent({
            id: e.eventId ?? randomUUID(),
            type: e.type,
            data: e.data,
            metadata: completeMetadata(e.metadata, occurredAt),
          }),
        ),
        { expectedRevision: toExpectedRevision(expected) },
      );
      const position = result.position ?? { commit: 0n, prepare: 0n };
      return { revision: Number(result.nextExpectedRevision), position: new LogPosition(position.commit, position.prepare) };
    } catch (error) {
      if (error instanceof EsdbWrongExpectedVersion) {
        const actual = typeof error.actualVersion === 'bigint' ? Number(error.actualVersion) : -1;
        throw new WrongExpectedVersionError(streamId, expected, actual);
      }
      throw error;
    }
  }

  async appendAtomically(appends: StreamAppend[]): Promise<AppendResult[]> {
    if (appends.length > 1) throw new AtomicAppendUnsupportedError();
    return Promise.all(appends.map((a) => this.append(a.streamId, a.events, a.expected)));
  }

  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const events: RecordedEvent[] = [];
    try {
      const read = this.client.readStream(streamId, {
        fromRevision: BigInt(options.fromRevision ?? 0),
        direction: FORWARDS,
        maxCount: options.maxCount ?? Number.MAX_SAFE_INTEGER,
      });
      for await (const resolved of read) if (resolved.event) events.push(toRecordedEvent(resolved.event as EsdbRecorded));
    } catch (error) {
      if (error instanceof StreamNotFoundError) return [];
      throw error;
    }
    return events;
  }

  async readAll(options: ReadAllOptions): Promise<RecordedEvent[]> {
    const events: RecordedEvent[] = [];
    const after = options.after;
    // Reads from a position include it; ask for one more and drop it.
    const read = this.client.readAll({
      fromPosition: after ? { commit: after.commit, prepare: after.prepare } : START,
      direction: FORWARDS,
      maxCount: options.maxCount + (after ? 1 : 0),
    });
    for await (const resolved of read) {
      const event = resolved.event as EsdbRecorded | undefined;
      if (!event || event.type.startsWith('$') || event.streamId.startsWith('$')) continue;
      const recorded = toRecordedEvent(event);
      if (after && !recorded.position.isAfter(after)) continue;
      events.push(recorded);
      if (events.length >= options.maxCount) break;
    }
    return events;
  }

  /**
   * A catch-up subscription to $all. After a failure (the server, or the
   * consumer) it pauses and subscribes again from the last event the consumer
   * accepted, so the batch that failed is delivered again.
   */
  subscribe(options: SubscribeOptions): Subscription {
    let after = options.after;
    let stopped = false;
    let current: { unsubscribe(): Promise<void> } | undefined;
    const stopSignal = new WakeSignal();
    const loop = (async () => {
      while (!stopped) {
        const subscription = this.client.subscribeToAll({
          fromPosition: after ? { commit: after.commit, prepare: after.prepare } : START,
          filter: excludeSystemEvents(),
        });
        current = subscription;
        try {
          for await (const resolved of subscription) {
            const event = resolved.event as EsdbRecorded | undefined;
            if (!event) continue;
            const recorded = toRecordedEvent(event);
            if (after && !recorded.position.isAfter(after)) continue;
            // The server pushes events one by one; they are handed over singly, in order.
            await options.onEvents([recorded]);
            after = recorded.position;
          }
        } catch (error) {
          if (!stopped) options.onError?.(error);
        } finally {
          await subscription.unsubscribe().catch(() => undefined);
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
    for await (const resolved of this.client.readAll({ fromPosition: END, direction: BACKWARDS, maxCount: 50 })) {
      const event = resolved.event as EsdbRecorded | undefined;
      if (event && !event.type.startsWith('$') && event.position)
        return new LogPosition(event.position.commit, event.position.prepare);
    }
    return null;
  }

  async ping(): Promise<void> {
    for await (const _ of this.client.readAll({ fromPosition: END, direction: BACKWARDS, maxCount: 1 })) break;
  }

  async close(): Promise<void> {
    await this.client.dispose();
  }
}

function toExpectedRevision(expected: ExpectedState): AppendExpectedRevision {
  if (expected === 'any') return ANY;
  if (expected === 'no_stream') return NO_STREAM;
  if (expected === 'exists') return STREAM_EXISTS;
  return BigInt(expected);
}

function toRecordedEvent(event: EsdbRecorded): RecordedEvent {
  const position = event.position ?? { commit: 0n, prepare: 0n };
  return {
    eventId: event.id,
    type: event.type,
    streamId: event.streamId,
    revision: Number(event.revision),
    position: new LogPosition(position.commit, position.prepare),
    data: event.data as RecordedEvent['data'],
    metadata: event.metadata as RecordedEvent['metadata'],
  };
}
