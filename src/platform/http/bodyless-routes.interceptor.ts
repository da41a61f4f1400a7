import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import type { FastifyRequest } from 'fastify';
import { Observable } from 'rxjs';
import { DomainError } from '../errors/domain-error';

/**
 * Unknown fields are refused everywhere, routes without a body included: a
 * JSON body sent to a route that reads none is a 400 naming what was sent,
 * never silently ignored. Routes that take the raw request (uploads) read their own body.
 * A body of another type never gets here: the body type rule (body-types.ts) answers it 415.
 */
@Injectable()
export class BodylessRoutesInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const body: unknown = request.body;
    if (body !== undefined && body !== null && !readsBody(context)) {
      const fields = typeof body === 'object' && !Array.isArray(body) ? Object.keys(body) : null;
      if (fields === null) throw new DomainError('invalid', 'This endpoint takes no request body');
      if (fields.length > 0)
        throw new DomainError('invalid', `This endpoint takes no request body; unknown fields: ${fields.join(', ')}`);
    }
    return next.handle();
  }
}

/** A route reads the body through `@Body()`, or handles the raw request (a multipart upload) itself. */
function readsBody(context: ExecutionContext): boolean {
  const args: Record<string, unknown> =
    Reflect.getMetadata(ROUTE_ARGS_METADATA, context.getClass(), context.getHandler().name) ?? {};
  return Object.keys(args).some((key) => [RouteParamtypes.BODY, RouteParamtypes.REQUEST].includes(Number(key.split(':')[0])));
}
