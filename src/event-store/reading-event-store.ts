import {
  AppendResult,
  EventStore,
  ExpectedState,
  LogPosition,
  NewEvent,
  ReadAllOptions,
  ReadStreamOptions,
  RecordedEvent,
  StreamAppend,
  SubscribeOptions,
  UnstorableEventError,
  Subscription,
} from './event-store';
import { PersonalDataVault } from './personal-data/personal-data-vault';
import { EventCatalogue } from './event-catalogue';
import { currentContextMetadata } from './event-context';
import { findUnstorableText } from '../platform/text/text-rules';
import { recordWrite } from './write-tracker';

/**
 * What the application sees of the log: an adapter whose reads come back with
 * personal data opened (or erased) and old shapes upcast, and whose appends are
 * declared in a module's event catalogue, stamped with their cause (correlation,
 * causation, actor) and reported to the request's read-your-writes tracking.
 */
export class ReadingEventStore extends EventStore {
  constructor(
    private readonly adapter: EventStore,
    private readonly vault: PersonalDataVault,
  ) {
    super();
  }

  async append(streamId: string, events: NewEvent[], expected: ExpectedState): Promise<AppendResult> {
    events = prepareForAppend(events);
    const result = await this.adapter.append(streamId, events, expected);
    recordWrite(
      result.position,
      events.map((e) => e.type),
    );
    return result;
  }

  async appendAtomically(appends: StreamAppend[]): Promise<AppendResult[]> {
    appends = appends.map((append) => ({ ...append, events: prepareForAppend(append.events) }));
    const results = await this.adapter.appendAtomically(appends);
    results.forEach((result, i) =>
      recordWrite(
        result.position,
        appends[i].events.map((e) => e.type),
      ),
    );
    return results;
  }

  async readStream(streamId: string, options?: ReadStreamOptions): Promise<RecordedEvent[]> {
    return this.prepare(await this.adapter.readStream(streamId, options));
  }

  async readAll(options: ReadAllOptions): Promise<RecordedEvent[]> {
    return this.prepare(await this.adapter.readAll(options));
  }

  subscribe(options: SubscribeOptions): Subscription {
    return this.adapter.subscribe({ ...options, onEvents: async (events) => options.onEvents(await this.prepare(events)) });
  }

  headPosition(): Promise<LogPosition | null> {
    return this.adapter.headPosition();
  }

  ping(): Promise<void> {
    return this.adapter.ping();
  }

  close(): Promise<void> {
    return this.adapter.close();
  }

  private async prepare(events: RecordedEvent[]): Promise<RecordedEvent[]> {
    const opened = await this.vault.openMany(events.map((e) => e.data));
    return events.map((event, i) => EventCatalogue.upcast({ ...event, data: opened[i] }));
  }
}

/** Refuses undeclared types and fills the envelope: schema version from the catalogue, cause from the context. */
function prepareForAppend(events: NewEvent[]): NewEvent[] {
  // Whatever path input came by, text no store can keep fails the whole append before it is written.
  for (const event of events) {
    const unstorable = findUnstorableText(event.data);
    if (unstorable) throw new UnstorableEventError(event.type, unstorable.path, unstorable.problem);
  }
  const context = currentContextMetadata();
  return events.map((event) => ({
    ...event,
    metadata: { ...context, schemaVersion: EventCatalogue.schemaVersionOf(event.type), ...event.metadata },
  }));
}
