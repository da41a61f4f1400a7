import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { from, lastValueFrom, Observable } from 'rxjs';
import { withEventContext } from '../../event-store/event-context';
import { Principal } from './access';

/** Stamps every event a request appends with the request id as correlation and the caller as actor. */
@Injectable()
export class EventContextInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<FastifyRequest & { principal?: Principal }>();
    return from(
      withEventContext(
        { correlationId: String(request.id), actorUserId: request.principal?.userId, tokenId: request.principal?.tokenId },
        () => lastValueFrom(next.handle(), { defaultValue: undefined }),
      ),
    );
  }
}
