import { Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { Pool } from 'pg';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { PG_POOL } from '../platform/database/database.module';
import { Clock } from '../platform/clock/clock';
import { EventStore } from './event-store';
import { EventStoreDbEventStore } from './eventstoredb/eventstoredb-event-store';
import { PersonalDataVault } from './personal-data/personal-data-vault';
import { PostgresEventStore } from './postgres/postgres-event-store';
import { ReadingEventStore } from './reading-event-store';

export function createEventStoreAdapter(config: AppConfig, pool: Pool, clock: Clock): EventStore {
  return config.eventStore === 'eventstoredb'
    ? new EventStoreDbEventStore(config.eventStoreUrl!, () => clock.now())
    : new PostgresEventStore(pool, () => clock.now());
}

@Global()
@Module({
  providers: [
    { provide: PersonalDataVault, inject: [PG_POOL], useFactory: (pool: Pool) => new PersonalDataVault(pool) },
    {
      provide: EventStore,
      inject: [APP_CONFIG, PG_POOL, PersonalDataVault, Clock],
      useFactory: (config: AppConfig, pool: Pool, vault: PersonalDataVault, clock: Clock) =>
        new ReadingEventStore(createEventStoreAdapter(config, pool, clock), vault),
    },
  ],
  exports: [EventStore, PersonalDataVault],
})
export class EventStoreModule implements OnApplicationShutdown {
  constructor(@Inject(EventStore) private readonly store: EventStore) {}

  async onApplicationShutdown(): Promise<void> {
    await this.store.close();
  }
}
