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
  Subscription,
} from './event-store';
import { PersonalDataVault } from './personal-data/personal-data-vault';
import { EventCatalogue } from './event-catalogue';
import { currentContextMetadata } from './event-context';
import { DomainError } from '../platform/errors/domain-error';
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
  refuseNulCharacters(events);
  const context = currentContextMetadata();
  return events.map((event) => ({
    ...event,
    metadata: { ...context, schemaVersion: EventCatalogue.schemaVersionOf(event.type), ...event.metadata },
  }));
}

/** PostgreSQL cannot store U+0000 in text or jsonb; user input carrying it is refused here, whatever path it came by. */
function refuseNulCharacters(events: NewEvent[]): void {
  const check = (value: unknown): void => {
    if (typeof value === 'string') {
      if (value.includes('\u0000')) throw new DomainError('invalid', 'Text must not contain NUL (U+0000) characters');
    } else if (Array.isArray(value)) value.forEach(check);
    else if (value !== null && typeof value === 'object')
      for (const [key, item] of Object.entries(value)) (check(key), check(item));
  };
  for (const event of events) check(event.data);
}
