import { DynamicModule, Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { CqrsModule } from '@nestjs/cqrs';
import { AppConfig } from './config/app-config';
import { Clock } from './platform/clock/clock';
import { ConfigModule } from './config/config.module';
import { EventStoreModule } from './event-store/event-store.module';
import { storedEventIdProvider } from './event-store/stored-event';
import { AccountingModule } from './modules/accounting/accounting.module';
import { AuthModule } from './modules/auth/auth.module';
import { BillingModule } from './modules/billing/billing.module';
import { CatalogModule } from './modules/catalog/catalog.module';
import { HealthModule } from './modules/health/health.module';
import { OrgsModule } from './modules/orgs/orgs.module';
import { PoliciesModule } from './modules/policies/policies.module';
import { UsersModule } from './modules/users/users.module';
import { VendorsModule } from './modules/vendors/vendors.module';
import { WalletModule } from './modules/wallet/wallet.module';
import { PurchasingModule } from './modules/purchasing/purchasing.module';
import { NetworkModule } from './modules/network/network.module';
import { BlobStoreModule } from './platform/blob-store/blob-store';
import { DatabaseModule } from './platform/database/database.module';
import { CursorModule } from './platform/http/cursor-codec';
import { EventContextInterceptor } from './platform/http/event-context.interceptor';
import { IdempotencyModule } from './platform/http/idempotency';
import { QueueModule } from './platform/queue/queue.module';
import { ProjectionsModule } from './projections/projections.module';
import { ReadYourWritesInterceptor } from './projections/read-your-writes';
import { SagasModule } from './sagas/sagas.module';
import { WebModule } from './web/web.module';

/** Infrastructure every feature module stands on. */
export function platformModules(config: AppConfig, clock?: Clock) {
  return [
    ConfigModule.forRoot(config, clock),
    DatabaseModule,
    EventStoreModule,
    QueueModule,
    BlobStoreModule,
    CursorModule,
    IdempotencyModule,
    CqrsModule.forRoot({ eventIdProvider: storedEventIdProvider }),
    ProjectionsModule,
    SagasModule,
  ];
}

@Module({})
export class AppModule {
  static forRoot(config: AppConfig, features: DynamicModule['imports'] = [], clock?: Clock): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ...platformModules(config, clock),
        AuthModule,
        UsersModule,
        VendorsModule,
        CatalogModule,
        BillingModule,
        WalletModule,
        PurchasingModule,
        PoliciesModule,
        AccountingModule,
        HealthModule,
        OrgsModule,
        NetworkModule,
        WebModule,
        ...features,
      ],
      providers: [
        { provide: APP_INTERCEPTOR, useClass: EventContextInterceptor },
        { provide: APP_INTERCEPTOR, useClass: ReadYourWritesInterceptor },
      ],
    };
  }
}
