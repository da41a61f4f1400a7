import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  DuplicateEventIdError,
  EventStoreUnavailableError,
  UnstorableEventError,
  WrongExpectedVersionError,
} from '../../event-store/event-store';
import { isConnectionRefused } from '../database/connection-refused';
import { DomainError, DomainErrorCode } from '../errors/domain-error';
import { UpstreamError } from '../errors/upstream-error';

const STATUS_BY_CODE: Record<DomainErrorCode, number> = {
  invalid: 400,
  unauthenticated: 401,
  payment_required: 402,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  unprocessable: 422,
  rate_limited: 429,
  unavailable: 503,
  bad_gateway: 502,
  gateway_timeout: 504,
};

export interface ErrorResponse {
  status: number;
  body: { message: string } & Record<string, unknown>;
  headers?: Record<string, string>;
}

/** Seconds a client is asked to wait before retrying when the event store is unavailable. */
const EVENT_STORE_RETRY_AFTER_SECONDS = 5;

/** Seconds a client should wait before retrying when PostgreSQL refused a connection. */
export const DATABASE_RETRY_AFTER_S = 2;

/** Maps anything thrown to the spec's `{message}` body; unexpected errors are logged and never leak. */
export function toErrorResponse(error: unknown, logger: Logger, request?: FastifyRequest): ErrorResponse {
  if (error instanceof DomainError) {
    return { status: STATUS_BY_CODE[error.code], body: { ...error.details, message: error.message } };
  }
  if (error instanceof UnstorableEventError) return { status: 400, body: { message: error.message } };
  // A concurrent change won the race; the caller may retry with fresh state.
  if (error instanceof WrongExpectedVersionError || error instanceof DuplicateEventIdError) {
    return { status: 409, body: { message: 'The resource was changed concurrently; retry the request' } };
  }
  // The log is down or failed unexpectedly: the client should come back, not see a bare 500. The cause is logged.
  if (error instanceof EventStoreUnavailableError) {
    const cause = error.cause instanceof Error ? { name: error.cause.name, message: error.cause.message } : undefined;
    logger.error({ err: { name: error.name, message: error.message, cause }, reqId: request?.id }, 'event store unavailable');
    return {
      status: HttpStatus.SERVICE_UNAVAILABLE,
      body: { message: 'The event store is unavailable; try again shortly' },
      headers: { 'retry-after': String(EVENT_STORE_RETRY_AFTER_SECONDS) },
    };
  }
  // An outside system failed us (the payment processor): said plainly, its details only in our log.
  if (error instanceof UpstreamError) {
    logger.warn({ err: { name: error.name, message: error.message }, reqId: request?.id }, 'outside system failed');
    return {
      status: HttpStatus.BAD_GATEWAY,
      body: { message: `${error.publicMessage}; try again shortly` },
      headers: { 'retry-after': '5' },
    };
  }
  if (error instanceof HttpException) {
    const response = error.getResponse();
    const message =
      typeof response === 'string'
        ? response
        : Array.isArray((response as { message?: unknown }).message)
          ? (response as { message: string[] }).message.join('; ')
          : String((response as { message?: unknown }).message ?? error.message);
    return { status: error.getStatus(), body: { message } };
  }
  // A safety net behind the input checks: text PostgreSQL cannot store is the caller's input, not our failure.
  const sqlState = (error as { code?: unknown })?.code;
  if (sqlState === '22P05' || sqlState === '22021' || sqlState === '22P02') {
    return { status: 400, body: { message: 'The request contains characters that cannot be stored' } };
  }
  // A multipart upload takes one file: a second is the caller's mistake, not a size problem.
  if ((error as { code?: unknown })?.code === 'FST_FILES_LIMIT') {
    return { status: 400, body: { message: 'Send exactly one archive: this upload takes a single file' } };
  }
  // No connection to be had (too many clients, starting up, the pool's wait ran out): the request may simply be retried.
  if (isConnectionRefused(error)) {
    return {
      status: HttpStatus.SERVICE_UNAVAILABLE,
      body: { message: 'The database is busy; try again shortly' },
      headers: { 'retry-after': String(DATABASE_RETRY_AFTER_S) },
    };
  }
  // Errors raised by Fastify and its plugins (bad JSON, body too large, rate limit) carry a 4xx statusCode.
  const statusCode = (error as { statusCode?: unknown })?.statusCode;
  if (typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500) {
    return { status: statusCode, body: { message: fastifyMessage(error as { code?: string; message?: string }, statusCode) } };
  }
  // Name, message and stack only: driver errors carry query parameters and row values.
  const { name, message, stack } =
    error instanceof Error ? error : { name: 'NonError', message: String(error), stack: undefined };
  logger.error({ err: { name, message, stack }, reqId: request?.id }, 'unhandled error');
  return { status: HttpStatus.INTERNAL_SERVER_ERROR, body: { message: 'Internal server error' } };
}

function fastifyMessage(error: { code?: string; message?: string }, status: number): string {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'Request body is not valid JSON';
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'Request body is too large';
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'Unsupported content type';
    default:
      return error.message || `Request failed with status ${status}`;
  }
}

@Catch()
export class HttpErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('HttpError');

  catch(error: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const { status, body, headers } = toErrorResponse(error, this.logger, http.getRequest<FastifyRequest>());
    const reply = http.getResponse<FastifyReply>();
    for (const [name, value] of Object.entries(headers ?? {})) reply.header(name, value);
    if (status === 429 && !reply.getHeader('retry-after')) reply.header('retry-after', '60');
    void reply.status(status).send(body);
  }
}
