import { Global, Module } from '@nestjs/common';
import { IdempotencyInterceptor } from './idempotency.interceptor';
import { InFlightRequests } from './in-flight-requests';

/** What `@Idempotent()` routes need, in every feature module. */
@Global()
@Module({ providers: [IdempotencyInterceptor, InFlightRequests], exports: [IdempotencyInterceptor, InFlightRequests] })
export class IdempotencyModule {}
