import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Pool } from 'pg';
import { DataSource, DataSourceOptions } from 'typeorm';
import { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { migrate } from './migrate';
import { MIGRATIONS } from './migrations';
import { PreparedStatements } from './prepared-statements';

export const PG_POOL = Symbol('PG_POOL');

/** What sessions of this service are called in `pg_stat_activity`. */
export const APPLICATION_NAME = 'svc-marketplace';

export type DatabasePoolOptions = AppConfig['databasePool'];

const DEFAULT_POOL: DatabasePoolOptions = { max: 10, connectTimeoutMs: 5_000 };

export function dataSourceOptions(databaseUrl: string, pool: DatabasePoolOptions = DEFAULT_POOL): DataSourceOptions {
  return {
    type: 'postgres',
    url: databaseUrl,
    migrations: MIGRATIONS,
    migrationsTableName: 'schema_migrations',
    synchronize: false,
    logging: false,
    applicationName: APPLICATION_NAME,
    poolSize: pool.max,
    // Also how long a query waits for a free slot of a full pool: bounded, so a busy database answers 503.
    connectTimeoutMS: pool.connectTimeoutMs,
    poolErrorHandler: () => undefined, // a dropped idle client is replaced on next use
  };
}

/** The `pg` pool under a TypeORM DataSource. */
export function poolOf(dataSource: DataSource): Pool {
  return (dataSource.driver as PostgresDriver).master as Pool;
}

/**
 * PostgreSQL for the whole app: TypeORM (read models, migrations) and the hot
 * paths (the event store, the vault) share one `pg` pool, so DATABASE_POOL_MAX
 * is the whole of it. TypeORM owns the pool and ends it on shutdown.
 */
@Global()
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => ({
        ...dataSourceOptions(config.databaseUrl!, config.databasePool),
        autoLoadEntities: true,
      }),
      dataSourceFactory: async (options) => {
        const dataSource = await new DataSource(options!).initialize();
        try {
          await migrate(dataSource);
        } catch (error) {
          await dataSource.destroy(); // a failed boot must not leave the pool open
          throw error;
        }
        return dataSource;
      },
    }),
  ],
  providers: [
    { provide: PG_POOL, inject: [DataSource], useFactory: poolOf },
    { provide: PreparedStatements, inject: [PG_POOL], useFactory: (pool: Pool) => new PreparedStatements(pool, 'svc', 128) },
  ],
  exports: [PG_POOL, PreparedStatements],
})
export class DatabaseModule {}
