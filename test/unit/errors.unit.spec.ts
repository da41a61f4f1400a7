import { BadRequestException, Logger } from '@nestjs/common';
import { DomainError } from '../../src/platform/errors/domain-error';
import { toErrorResponse } from '../../src/platform/http/error.filter';

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
