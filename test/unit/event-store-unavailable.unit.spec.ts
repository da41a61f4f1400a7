import { ArgumentsHost, Logger } from '@nestjs/common';
import { EventStoreUnavailableError } from '../../src/event-store/event-store';
import { HttpErrorFilter, toErrorResponse } from '../../src/platform/http/error.filter';

describe('error responses when the event store is unavailable', () => {
  const unavailable = () =>
    new EventStoreUnavailableError('the event store did not answer', {
      cause: Object.assign(new Error('14 UNAVAILABLE: No connection established'), { code: 14 }),
    });

  it('answers 503 with {message} and a Retry-After header, never a bare 500', () => {
    const logger = { error: jest.fn() } as unknown as Logger;
    expect(toErrorResponse(unavailable(), logger)).toEqual({
      status: 503,
      body: { message: 'The event store is unavailable; try again shortly' },
      headers: { 'retry-after': '5' },
    });
  });

  it('logs the cause, so an unexpected store failure is not lost behind the 503', () => {
    const logger = { error: jest.fn() } as unknown as Logger;
    toErrorResponse(unavailable(), logger);
    expect(JSON.stringify((logger.error as jest.Mock).mock.calls)).toMatch(/No connection established/);
  });

  it('sends the Retry-After header on the reply', () => {
    const headers = new Map<string, string>();
    const sent: { status?: number; body?: unknown } = {};
    const reply = {
      header: (name: string, value: string) => (headers.set(name.toLowerCase(), value), reply),
      getHeader: (name: string) => headers.get(name.toLowerCase()),
      status: (status: number) => ((sent.status = status), reply),
      send: (body: unknown) => ((sent.body = body), reply),
    };
    const host = {
      switchToHttp: () => ({ getRequest: () => ({ id: 'req-1' }), getResponse: () => reply }),
    } as unknown as ArgumentsHost;
    const filter = new HttpErrorFilter();
    (filter as unknown as { logger: Pick<Logger, 'error'> }).logger = { error: jest.fn() };
    filter.catch(unavailable(), host);
    expect(sent).toEqual({ status: 503, body: { message: 'The event store is unavailable; try again shortly' } });
    expect(headers.get('retry-after')).toBe('5');
  });
});
