import { ApiConsumes } from '@nestjs/swagger';
import { FASTIFY_ROUTE_CONFIG_METADATA } from '@nestjs/platform-fastify/constants';
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';

export const JSON_BODY = 'application/json';
export const FORM_BODY = 'application/x-www-form-urlencoded';
export const MULTIPART_BODY = 'multipart/form-data';
export type BodyType = typeof JSON_BODY | typeof FORM_BODY | typeof MULTIPART_BODY;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The media types this route takes a body in; JSON when unset (see `registerBodyTypeRule`). */
    acceptedBodyTypes?: readonly BodyType[];
  }
}

/**
 * A route that takes its body in another type than JSON, by design. The only ones (grep for
 * `AcceptsBody` and `acceptBodiesOnEveryRoute`): `POST /v1/vendor/releases` (a multipart upload) and the
 * web app's HTML form posts. Also documents the types in the OpenAPI document.
 */
export function AcceptsBody(...types: BodyType[]): MethodDecorator {
  return (target, key, descriptor) => {
    const handler = descriptor.value as object;
    const config = (Reflect.getMetadata(FASTIFY_ROUTE_CONFIG_METADATA, handler) as object | undefined) ?? {};
    Reflect.defineMetadata(FASTIFY_ROUTE_CONFIG_METADATA, { ...config, acceptedBodyTypes: types }, handler);
    ApiConsumes(...types)(target, key, descriptor);
  };
}

/** For a plugin whose routes are all of a kind (the web app's forms): every route it registers takes `types`. */
export function acceptBodiesOnEveryRoute(instance: FastifyInstance, ...types: BodyType[]): void {
  instance.addHook('onRoute', (route: RouteOptions) => {
    route.config = { ...route.config, acceptedBodyTypes: types };
  });
}

class UnsupportedBodyType extends Error {
  readonly statusCode = 415;
  readonly code = 'SVC_UNSUPPORTED_BODY_TYPE';
}

/**
 * The one body rule: a request body whose media type the route does not take is a 415 naming the type it
 * takes, before a byte of it is read. JSON unless the route says otherwise (`AcceptsBody`). So a multipart
 * or text body can never reach a JSON route as "no body" and be answered 200 unapplied, whichever parsers
 * are registered (multipart is, for uploads). Routes that read no body follow the same rule; what a JSON
 * body may hold there is the bodyless-routes interceptor's business.
 */
export function registerBodyTypeRule(fastify: FastifyInstance): void {
  fastify.addHook('preParsing', async (request, _reply, payload) => {
    if (request.is404 || !carriesBody(request)) return payload;
    const accepted = request.routeOptions.config.acceptedBodyTypes ?? [JSON_BODY];
    const type = mediaTypeOf(request.headers['content-type']);
    if (type !== null && (accepted as readonly string[]).includes(type)) return payload;
    const takes = `this endpoint takes ${accepted.join(' or ')}`;
    if (type === null) throw new UnsupportedBodyType(`The request body has no Content-Type: ${takes}`);
    // The caller's header is named back only when it is a plain media type.
    throw new UnsupportedBodyType(`Unsupported content type${PLAIN_MEDIA_TYPE.test(type) ? ` ${type}` : ''}: ${takes}`);
  });
}

const PLAIN_MEDIA_TYPE = /^[a-z0-9!#$&^_.+-]{1,64}\/[a-z0-9!#$&^_.+-]{1,64}$/;

/** Fastify's own test: methods it parses bodies for, with a length or a chunked body. */
function carriesBody(request: FastifyRequest): boolean {
  if (request.method === 'GET' || request.method === 'HEAD' || request.method === 'TRACE') return false;
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** `Multipart/Form-Data; boundary=x` is `multipart/form-data`; null when there is none. */
export function mediaTypeOf(header: string | undefined): string | null {
  const type = header?.split(';')[0].trim().toLowerCase();
  return type ? type : null;
}
