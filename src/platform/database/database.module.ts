import { Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Pool } from 'pg';
import { DataSource, DataSourceOptions } from 'typeorm';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { migrate } from './migrate';
import { MIGRATIONS } from './migrations';

export const PG_POOL = Symbol('PG_POOL');

export function dataSourceOptions(databaseUrl: string): DataSourceOptions {
  return {
    type: 'postgres',
    url: databaseUrl,
    migrations: MIGRATIONS,
    migrationsTableName: 'schema_migrations',
    synchronize: false,
    logging: false,
    extra: { max: 10 },
  };
}

/**
 * PostgreSQL for the whole app: TypeORM (read models, migrations) and a plain
 * `pg` pool for the hot paths (the event store, the vault).
 */
@Global()
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => ({ ...dataSourceOptions(config.databaseUrl!), autoLoadEntities: true }),
      dataSourceFactory: async (options) => {
        const dataSource = await new DataSource(options!).initialize();
        await migrate(dataSource);
        return dataSource;
      },
    }),
  ],
  providers: [
    {
      provide: PG_POOL,
      inject: [APP_CONFIG, DataSource],
      // Depends on the DataSource so the schema exists before the pool is used.
      useFactory: (config: AppConfig) => {
        const pool = new Pool({ connectionString: config.databaseUrl, max: 20 });
        pool.on('error', () => undefined); // a dropped idle client is replaced on next use
        return pool;
      },
    },
  ],
  exports: [PG_POOL],
})
export class DatabaseModule implements OnApplicationShutdown {
  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  async onApplicationShutdown(): Promise<void> {
    await this.pool.end();
  }
}
