import { AsyncLocalStorage } from 'node:async_hooks';
import { ExpectedState, StreamAppend } from '../../../event-store/event-store';
import { derivedId } from '../../ids';
import { IdempotencyEvents } from './idempotency.events';

/** What a handler needs to know about the `Idempotency-Key` of the request it serves. */
export interface IdempotentRequestScope {
  /** Stable for one caller's key: ids derived from it make a retry re-create the same things. */
  scopeKey: string;
  streamId: string;
  /** The key stream's state the answer is appended at: `no_stream`, or its revision when an expired answer is there. */
  expected: ExpectedState;
  fingerprint: string;
  /** The route's success status, recorded unless the handler names another. */
  status: number;
  answeredAt: () => Date;
  seal: (json: string) => Promise<string>;
  /** Set when a handler recorded its answer: the interceptor then sends exactly that. */
  answer?: { status: number; body: unknown };
}

const scopes = new AsyncLocalStorage<IdempotentRequestScope>();

export function withIdempotentRequest<T>(scope: IdempotentRequestScope, work: () => T): T {
  return scopes.run(scope, work);
}

/**
 * For handlers of routes marked `@Idempotent()`. Without a key in the request
 * both are inert, so a handler needs no branch of its own.
 */
export const IdempotentRequest = {
  /**
   * An id for what this request creates, derived from the caller's key (and
   * the key's generation: a key reused after its time to live creates anew);
   * undefined without a key.
   */
  derivedId(kind: string): string | undefined {
    const scope = scopes.getStore();
    return scope ? derivedId(kind, scope.scopeKey, String(scope.expected)) : undefined;
  },

  /**
   * The append that records this answer: put it in the same atomic append as
   * the request's events, so neither can exist without the other. Answers that
   * append nothing are never recorded (the caller may fix the cause and retry).
   * Call it once, with the exact body the route answers.
   */
  async recordAnswer(body: unknown, status?: number): Promise<StreamAppend[]> {
    const scope = scopes.getStore();
    if (!scope) return [];
    const answer = { status: status ?? scope.status, body };
    scope.answer = answer;
    return [
      {
        streamId: scope.streamId,
        expected: scope.expected,
        events: [
          {
            type: IdempotencyEvents.IdempotentRequestAnswered,
            data: {
              fingerprint: scope.fingerprint,
              status: answer.status,
              body: await scope.seal(JSON.stringify(body)),
              answeredAt: scope.answeredAt().toISOString(),
            },
          },
        ],
      },
    ];
  },
};
