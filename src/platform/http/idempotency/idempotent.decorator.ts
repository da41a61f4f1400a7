import { applyDecorators, SetMetadata, UseInterceptors } from '@nestjs/common';
import { ApiConflictResponse, ApiHeader, ApiUnprocessableEntityResponse } from '@nestjs/swagger';
import { IDEMPOTENT_ROUTE, IdempotencyInterceptor, IdempotentRouteOptions } from './idempotency.interceptor';

/**
 * Accepts `Idempotency-Key` on a route that moves money. Its handler records
 * its answer with `IdempotentRequest.recordAnswer` in the append of its events.
 */
export function Idempotent(options: IdempotentRouteOptions = {}): MethodDecorator {
  return applyDecorators(
    SetMetadata(IDEMPOTENT_ROUTE, options),
    UseInterceptors(IdempotencyInterceptor),
    ApiHeader({
      name: 'Idempotency-Key',
      required: false,
      description:
        '1-255 visible ASCII characters, fresh per operation and reused on its retries. A retry answers the recorded ' +
        'status and body with `Idempotent-Replayed: true` and executes nothing, for at least IDEMPOTENCY_TTL_HOURS.',
      schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7E]+$' },
    }),
    ApiConflictResponse({
      description: 'A request with this Idempotency-Key is still executing; retry after Retry-After seconds',
    }),
    ApiUnprocessableEntityResponse({ description: 'This Idempotency-Key was used for a different request' }),
  );
}
