import { createHash } from 'node:crypto';
import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants';
import { Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import stableStringify from 'fast-json-stable-stringify';
import { from, lastValueFrom, Observable } from 'rxjs';
import { AppConfig } from '../../../config/app-config';
import { InjectConfig } from '../../../config/config.module';
import { EventStore, ExpectedState, WrongExpectedVersionError } from '../../../event-store/event-store';
import { PersonalDataVault } from '../../../event-store/personal-data/personal-data-vault';
import { Clock } from '../../clock/clock';
import { DomainError } from '../../errors/domain-error';
import { derivedId } from '../../ids';
import { Principal } from '../access';
import { IdempotencyEvents, IdempotentRequestAnswered } from './idempotency.events';
import { IdempotentRequestScope, withIdempotentRequest } from './idempotent-request';
import { InFlightRequests } from './in-flight-requests';

export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'Idempotent-Replayed';
export const IDEMPOTENT_ROUTE = 'svc:idempotent-route';

/** 1-255 visible ASCII characters. */
const VALID_KEY = /^[\x21-\x7e]{1,255}$/;

export interface IdempotentRouteOptions {
  /** Narrows keys to a part of the caller's world (an org): the same key elsewhere is unrelated. */
  scope?: (request: FastifyRequest) => string | undefined;
}

type Recorded = { status: number; body: unknown; fingerprint: string } | 'none' | { expiredAt: number };

/**
 * `Idempotency-Key` on the routes that move money (`@Idempotent()`). The
 * first request with a key executes, and its handler records the answer in
 * the same atomic append as its events (`IdempotentRequest.recordAnswer`).
 * Later requests with the key get that answer again, marked
 * `Idempotent-Replayed: true`, and execute nothing; a different request with
 * the key is 422; one that arrives while the first is executing is 409.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    private readonly store: EventStore,
    private readonly inFlight: InFlightRequests,
    private readonly vault: PersonalDataVault,
    private readonly clock: Clock,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest & { principal?: Principal }>();
    const key = request.headers[IDEMPOTENCY_KEY_HEADER];
    if (key === undefined) return next.handle();
    return from(this.execute(context, request, http.getResponse<FastifyReply>(), key, next));
  }

  private async execute(
    context: ExecutionContext,
    request: FastifyRequest & { principal?: Principal },
    reply: FastifyReply,
    key: string | string[],
    next: CallHandler,
  ): Promise<unknown> {
    if (typeof key !== 'string' || !VALID_KEY.test(key))
      throw new DomainError('invalid', 'Idempotency-Key must be 1-255 visible ASCII characters (no spaces)');
    const principal = request.principal;
    if (!principal) throw new DomainError('unauthenticated', 'Idempotency-Key needs an authenticated caller');
    const options = this.reflector.get<IdempotentRouteOptions>(IDEMPOTENT_ROUTE, context.getHandler()) ?? {};
    const scopeKey = derivedId('idempotency-key', principal.userId, options.scope?.(request) ?? '', key);
    const streamId = `idempotency-${scopeKey}`;
    const fingerprint = fingerprintOf(request);

    const before = await this.recorded(streamId);
    if (isAnswer(before)) return this.replay(before, fingerprint, reply);

    const claim = await this.inFlight.claim(scopeKey);
    if (!claim) {
      void reply.header('retry-after', '1');
      throw new DomainError('conflict', 'A request with this Idempotency-Key is still being processed; retry shortly');
    }
    try {
      // The first request may have finished between the look and the claim.
      const recorded = await this.recorded(streamId);
      if (isAnswer(recorded)) return this.replay(recorded, fingerprint, reply);
      const scope: IdempotentRequestScope = {
        scopeKey,
        streamId,
        expected: await this.expectedState(streamId, recorded),
        fingerprint,
        status: this.successStatus(context, request),
        answeredAt: () => this.clock.now(),
        seal: (json) => this.vault.seal(principal.userId, json),
      };
      let result: unknown;
      try {
        result = await withIdempotentRequest(scope, () => lastValueFrom(next.handle(), { defaultValue: undefined }));
      } catch (error) {
        // A lost race (another instance, or a retry after a lapsed claim) may have recorded the answer: it stands.
        if (error instanceof WrongExpectedVersionError) {
          const winner = await this.recorded(streamId);
          if (isAnswer(winner)) return this.replay(winner, fingerprint, reply);
        }
        throw error;
      }
      if (!scope.answer) return result;
      // Only an answer that was stored is sent as recorded: an attempt that recorded one and then lost its
      // append's race may have answered otherwise on its retry.
      const stored = await this.recorded(streamId);
      if (!isAnswer(stored) || stored.fingerprint !== fingerprint) return result;
      void reply.status(stored.status);
      return stored.body;
    } finally {
      await this.inFlight.release(scopeKey, claim).catch(() => undefined);
    }
  }

  /** The answer recorded for the key and still within its time to live, or what is there instead. */
  private async recorded(streamId: string): Promise<Recorded> {
    const events = await this.store.readStream(streamId);
    const last = events[events.length - 1] as unknown as
      (IdempotentRequestAnswered & { metadata: { occurredAt: string } }) | undefined;
    if (!last || last.type !== IdempotencyEvents.IdempotentRequestAnswered) return 'none';
    const answeredAt = Date.parse(last.data.answeredAt);
    const ttlMs = this.config.idempotencyTtlHours * 3_600_000;
    // A shredded body (the account was deleted) cannot be replayed; nor can its key be reused.
    if (this.clock.now().getTime() - answeredAt > ttlMs || last.data.body === null) return { expiredAt: answeredAt };
    return { status: last.data.status, body: JSON.parse(last.data.body), fingerprint: last.data.fingerprint };
  }

  private async expectedState(streamId: string, recorded: Recorded): Promise<ExpectedState> {
    if (recorded === 'none') return 'no_stream';
    const events = await this.store.readStream(streamId);
    return events.length - 1;
  }

  private replay(
    recorded: { status: number; body: unknown; fingerprint: string },
    fingerprint: string,
    reply: FastifyReply,
  ): unknown {
    if (recorded.fingerprint !== fingerprint)
      throw new DomainError(
        'unprocessable',
        'This Idempotency-Key was already used for another request (a different method, path or body); use a new key',
      );
    void reply.status(recorded.status).header(REPLAYED_HEADER, 'true');
    return recorded.body;
  }

  private successStatus(context: ExecutionContext, request: FastifyRequest): number {
    const declared = this.reflector.get<number | undefined>(HTTP_CODE_METADATA, context.getHandler());
    return declared ?? (request.method === 'POST' ? 201 : 200);
  }
}

function isAnswer(recorded: Recorded): recorded is { status: number; body: unknown; fingerprint: string } {
  return typeof recorded === 'object' && 'fingerprint' in recorded;
}

/** What makes two requests the same: method, path and the body as canonical JSON (key order ignored). */
export function fingerprintOf(request: Pick<FastifyRequest, 'method' | 'url' | 'body'>): string {
  const path = request.url.split('?')[0];
  return createHash('sha256')
    .update(`${request.method} ${path}\n${stableStringify(request.body ?? null)}`)
    .digest('hex');
}
