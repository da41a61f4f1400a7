import { BadRequestException, Logger } from '@nestjs/common';
import { DatabaseError } from 'pg';
import { QueryFailedError } from 'typeorm';
import { DomainError } from '../../src/platform/errors/domain-error';
import { DATABASE_RETRY_AFTER_S, toErrorResponse } from '../../src/platform/http/error.filter';

describe('error responses', () => {
  const logger = { error: jest.fn() } as unknown as Logger;

  it.each([
    ['invalid', 400],
    ['unauthenticated', 401],
    ['payment_required', 402],
    ['forbidden', 403],
    ['not_found', 404],
    ['conflict', 409],
    ['unprocessable', 422],
    ['rate_limited', 429],
  ] as const)('maps the domain code %s to %i with {message}', (code, status) => {
    expect(toErrorResponse(new DomainError(code, 'why'), logger)).toEqual({ status, body: { message: 'why' } });
  });

  it('keeps extra fields but never lets them replace the message', () => {
    const error = new DomainError('payment_required', 'Wallet balance too low', { status: 'insufficient_balance', message: 'x' });
    expect(toErrorResponse(error, logger).body).toEqual({ status: 'insufficient_balance', message: 'Wallet balance too low' });
  });

  it('flattens Nest HTTP exceptions to {message}', () => {
    expect(toErrorResponse(new BadRequestException(['a is bad', 'b is bad']), logger)).toEqual({
      status: 400,
      body: { message: 'a is bad; b is bad' },
    });
  });

  it('keeps 4xx errors raised by Fastify plugins', () => {
    const error = Object.assign(new Error('x'), { statusCode: 413, code: 'FST_ERR_CTP_BODY_TOO_LARGE' });
    expect(toErrorResponse(error, logger)).toEqual({ status: 413, body: { message: 'Request body is too large' } });
  });

  it('hides unexpected errors behind a 500 and logs them', () => {
    const response = toErrorResponse(new Error('connection string postgres://user:secret@db'), logger);
    expect(response).toEqual({ status: 500, body: { message: 'Internal server error' } });
    expect(logger.error).toHaveBeenCalled();
  });
});

describe('error responses for concurrency conflicts', () => {
  it('answers a lost optimistic-concurrency race with 409, not 500', () => {
    const logger = { error: jest.fn() } as unknown as Logger;
    const { WrongExpectedVersionError } = jest.requireActual('../../src/event-store/event-store');
    expect(toErrorResponse(new WrongExpectedVersionError('wallet-1', 3, 4), logger).status).toBe(409);
  });

  it('logs unexpected errors without their driver details', () => {
    const error = Object.assign(new Error('duplicate key'), { parameters: ['svc_secret_token'], detail: 'Key (email)=(a@b.c)' });
    const logger = { error: jest.fn() } as unknown as Logger;
    toErrorResponse(error, logger);
    expect(JSON.stringify((logger.error as jest.Mock).mock.calls)).not.toMatch(/svc_secret_token|a@b\.c/);
  });
});

describe('error responses when PostgreSQL refuses a connection', () => {
  const logger = { error: jest.fn() } as unknown as Logger;
  const busy = {
    status: 503,
    body: { message: 'The database is busy; try again shortly' },
    headers: { 'retry-after': String(DATABASE_RETRY_AFTER_S) },
  };
  const serverError = (code: string, message: string) => Object.assign(new DatabaseError(message, 0, 'error'), { code });
  const refusedSocket = (address: string) =>
    Object.assign(new Error(`connect ECONNREFUSED ${address}:5432`), { code: 'ECONNREFUSED', syscall: 'connect' });

  it.each([
    ['too many clients (53300)', serverError('53300', 'sorry, too many clients already')],
    ['the server starting up (57P03)', serverError('57P03', 'the database system is starting up')],
    ['nothing listening (ECONNREFUSED)', refusedSocket('127.0.0.1')],
    ['every address of a host refusing', new AggregateError([refusedSocket('::1'), refusedSocket('127.0.0.1')])],
    ['the pool’s wait for a free client running out', new Error('timeout exceeded when trying to connect')],
    ['a new connection timing out', new Error('Connection terminated due to connection timeout', { cause: new Error('x') })],
    [
      'a refusal wrapped by TypeORM',
      new QueryFailedError('SELECT 1', [], serverError('53300', 'sorry, too many clients already')),
    ],
  ])('answers %s with 503 and Retry-After, and logs no error', (_case, error) => {
    expect(toErrorResponse(error, logger)).toEqual(busy);
    expect(logger.error).not.toHaveBeenCalled();
  });

  it.each([
    ['another SQLSTATE', serverError('23505', 'duplicate key value violates unique constraint')],
    ['an outbound HTTP call refused', new TypeError('fetch failed', { cause: refusedSocket('10.0.0.1') })],
  ])('leaves %s a 500', (_case, error) => {
    expect(toErrorResponse(error, logger).status).toBe(500);
  });
});
