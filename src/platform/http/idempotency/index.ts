export * from './idempotent.decorator';
export { IdempotentRequest } from './idempotent-request';
export { IdempotencyInterceptor, REPLAYED_HEADER } from './idempotency.interceptor';
export { InFlightRequests } from './in-flight-requests';
export { IdempotencyModule } from './idempotency.module';
