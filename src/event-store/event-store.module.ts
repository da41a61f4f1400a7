import { Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { Pool } from 'pg';
import { AppConfig, ConfigError } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { PG_POOL } from '../platform/database/database.module';
import { Clock } from '../platform/clock/clock';
import { EventStore } from './event-store';
import { EventStoreDbEventStore } from './eventstoredb/eventstoredb-event-store';
import { multiStreamAppendProblem } from './eventstoredb/server-version';
import { PersonalDataVault } from './personal-data/personal-data-vault';
import { PostgresEventStore } from './postgres/postgres-event-store';
import { PostgresSnapshotStore } from './postgres/postgres-snapshot-store';
import { ReadingEventStore } from './reading-event-store';
import { SnapshotStore } from './snapshot-store';

export async function createEventStoreAdapter(config: AppConfig, pool: Pool, clock: Clock): Promise<EventStore> {
  if (config.eventStore !== 'eventstoredb') return new PostgresEventStore(pool, () => clock.now());
  const store = new EventStoreDbEventStore(config.eventStoreUrl!, () => clock.now());
  // Fail at boot, not on the first registration: several write paths append to several streams at once.
  try {
    const problem = multiStreamAppendProblem(await store.serverVersion());
    if (problem) throw new ConfigError('EVENTSTORE_URL', problem);
  } catch (error) {
    await store.close().catch(() => undefined);
    throw error;
  }
  return store;
}

@Global()
@Module({
  providers: [
    { provide: PersonalDataVault, inject: [PG_POOL], useFactory: (pool: Pool) => new PersonalDataVault(pool) },
    {
      provide: EventStore,
      inject: [APP_CONFIG, PG_POOL, PersonalDataVault, Clock],
      useFactory: async (config: AppConfig, pool: Pool, vault: PersonalDataVault, clock: Clock) =>
        new ReadingEventStore(await createEventStoreAdapter(config, pool, clock), vault),
    },
    // In the read-model database whichever store holds the log: snapshots are a cache, like the read models.
    { provide: SnapshotStore, inject: [PG_POOL], useFactory: (pool: Pool) => new PostgresSnapshotStore(pool) },
  ],
  exports: [EventStore, PersonalDataVault, SnapshotStore],
})
export class EventStoreModule implements OnApplicationShutdown {
  constructor(@Inject(EventStore) private readonly store: EventStore) {}

  async onApplicationShutdown(): Promise<void> {
    await this.store.close();
  }
}
