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
import { Upcasters } from './upcasters';
import { recordWrite } from './write-tracker';

/**
 * What the application sees of the log: an adapter whose reads come back with
 * personal data opened (or erased) and old shapes upcast, and whose appends are
 * reported to the request's read-your-writes tracking.
 */
export class ReadingEventStore extends EventStore {
  constructor(
    private readonly adapter: EventStore,
    private readonly vault: PersonalDataVault,
    private readonly upcasters: Upcasters,
  ) {
    super();
  }

  async append(streamId: string, events: NewEvent[], expected: ExpectedState): Promise<AppendResult> {
    const result = await this.adapter.append(streamId, events, expected);
    recordWrite(
      result.position,
      events.map((e) => e.type),
    );
    return result;
  }

  async appendAtomically(appends: StreamAppend[]): Promise<AppendResult[]> {
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
    return events.map((event, i) => this.upcasters.apply({ ...event, data: opened[i] }));
  }
}
