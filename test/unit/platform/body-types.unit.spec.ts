import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import { FASTIFY_ROUTE_CONFIG_METADATA } from '@nestjs/platform-fastify/constants';
import Fastify, { FastifyInstance } from 'fastify';
import {
  AcceptsBody,
  acceptBodiesOnEveryRoute,
  FORM_BODY,
  mediaTypeOf,
  MULTIPART_BODY,
  registerBodyTypeRule,
} from '../../../src/platform/http/body-types';
import { registerJsonBodyParser } from '../../../src/platform/http/json-body';

describe('the body type rule', () => {
  let app: FastifyInstance;

  beforeAll(async () => {
    app = Fastify();
    registerJsonBodyParser(app);
    registerBodyTypeRule(app);
    await app.register(multipart);
    app.patch('/json', async (request) => ({ body: request.body ?? null, multipart: request.isMultipart() }));
    app.post('/upload', { config: { acceptedBodyTypes: [MULTIPART_BODY] } }, async (request) => ({
      multipart: request.isMultipart(),
    }));
    await app.register(async (forms) => {
      await forms.register(formbody);
      acceptBodiesOnEveryRoute(forms, FORM_BODY);
      forms.post('/form', async (request) => ({ body: request.body }));
    });
    await app.ready();
  });
  afterAll(() => app.close());

  const send = (method: 'POST' | 'PATCH' | 'GET', url: string, contentType: string | undefined, payload: string) =>
    app.inject({ method, url, headers: contentType ? { 'content-type': contentType } : {}, payload });
  const multipartBody = '--b\r\ncontent-disposition: form-data; name="thresholdCents"\r\n\r\n300\r\n--b--\r\n';

  it('takes JSON on a route that declares nothing, parameters and case aside', async () => {
    expect((await send('PATCH', '/json', 'application/json', '{"a":1}')).json()).toEqual({ body: { a: 1 }, multipart: false });
    expect((await send('PATCH', '/json', 'Application/JSON; charset=utf-8', '{"a":1}')).statusCode).toBe(200);
  });

  it('answers any other body with 415 naming the type the route takes', async () => {
    for (const [contentType, payload] of [
      ['multipart/form-data; boundary=b', multipartBody],
      ['text/plain', '{"a":1}'],
      ['application/x-www-form-urlencoded', 'a=1'],
      ['application/merge-patch+json', '{"a":1}'],
      [undefined, '{"a":1}'],
    ] as const) {
      const response = await send('PATCH', '/json', contentType, payload);
      expect({ contentType, status: response.statusCode }).toEqual({ contentType, status: 415 });
      expect(response.json().message).toMatch(/this endpoint takes application\/json$/);
    }
    expect((await send('PATCH', '/json', 'text/plain', 'x')).json().message).toBe(
      'Unsupported content type text/plain: this endpoint takes application/json',
    );
    expect((await send('PATCH', '/json', undefined, 'x')).json().message).toBe(
      'The request body has no Content-Type: this endpoint takes application/json',
    );
  });

  it('names back only a plain media type', async () => {
    const response = await send('PATCH', '/json', `text/${'x'.repeat(200)}`, 'x');
    expect(response.json().message).toBe('Unsupported content type: this endpoint takes application/json');
  });

  it('lets a request without a body through whatever its headers say', async () => {
    expect((await send('PATCH', '/json', undefined, '')).json()).toEqual({ body: null, multipart: false });
    expect((await send('PATCH', '/json', 'application/json', '')).statusCode).toBe(200);
  });

  it('takes what a route declares instead, and refuses JSON there', async () => {
    expect((await send('POST', '/upload', 'multipart/form-data; boundary=b', multipartBody)).json()).toEqual({
      multipart: true,
    });
    const json = await send('POST', '/upload', 'application/json', '{}');
    expect(json.statusCode).toBe(415);
    expect(json.json().message).toBe('Unsupported content type application/json: this endpoint takes multipart/form-data');
    expect((await send('POST', '/form', FORM_BODY, 'a=1')).json()).toEqual({ body: { a: '1' } });
    expect((await send('POST', '/form', 'application/json', '{"a":1}')).statusCode).toBe(415);
  });

  it('leaves an unknown route a 404', async () => {
    expect((await send('POST', '/nowhere', 'multipart/form-data; boundary=b', multipartBody)).statusCode).toBe(404);
  });

  it('reads media types plainly', () => {
    expect(mediaTypeOf(undefined)).toBeNull();
    expect(mediaTypeOf(' ; charset=utf-8')).toBeNull();
    expect(mediaTypeOf('Multipart/Form-Data; boundary=x')).toBe('multipart/form-data');
  });

  it('declares a Nest route’s types in its Fastify route config, keeping what else is there', () => {
    class Controller {
      upload(): void {}
    }
    const descriptor = Object.getOwnPropertyDescriptor(Controller.prototype, 'upload')!;
    Reflect.defineMetadata(FASTIFY_ROUTE_CONFIG_METADATA, { rateLimit: { max: 1 } }, descriptor.value);
    AcceptsBody(MULTIPART_BODY)(Controller.prototype, 'upload', descriptor);
    expect(Reflect.getMetadata(FASTIFY_ROUTE_CONFIG_METADATA, descriptor.value)).toEqual({
      rateLimit: { max: 1 },
      acceptedBodyTypes: [MULTIPART_BODY],
    });
  });
});
