import { randomUUID } from 'node:crypto';
import multipart from '@fastify/multipart';
import { DynamicModule, NestApplicationOptions, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppConfig } from '../../config/app-config';
import { registerBodyTypeRule } from './body-types';
import { BodylessRoutesInterceptor } from './bodyless-routes.interceptor';
import { HttpErrorFilter } from './error.filter';
import { registerJsonBodyParser } from './json-body';
import { VERSION } from '../version';
import { createRootLogger, PinoNestLogger } from './logger';
import { registerRateLimit } from './rate-limit';
import { createValidationPipe } from './validation';

const REQUEST_ID = /^[\w.:-]{1,128}$/;

/** Builds the HTTP application around a root module: Fastify, errors, validation, limits, logs, OpenAPI. */
export async function createHttpApp(rootModule: Type | DynamicModule, config: AppConfig): Promise<NestFastifyApplication> {
  const rootLogger = createRootLogger(config);
  const adapter = new FastifyAdapter({
    loggerInstance: rootLogger,
    bodyLimit: config.bodyLimitBytes,
    trustProxy: config.trustProxy,
    // Slow clients cannot hold connections: the whole request (headers too) must arrive within the timeout,
    // checked every second, and a client that stalls gets a 408.
    requestTimeout: config.requestTimeoutMs,
    keepAliveTimeout: config.keepAliveTimeoutMs,
    http: { headersTimeout: config.requestTimeoutMs, connectionsCheckingInterval: 1_000 },
    // Router failures (a malformed URL, an oversized path parameter) get the one error shape, never echoing the path.
    frameworkErrors: (error: { code?: string }, request: FastifyRequest, reply: FastifyReply) => {
      const status = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 414 : 400;
      const message = status === 414 ? 'A path segment is too long' : 'The URL is malformed (bad percent-encoding)';
      void reply.status(status).header('x-request-id', request.id).send({ message });
    },
    // Keep a caller's request id when it is sane, so a trace can cross services.
    genReqId: (request: { headers: Record<string, string | string[] | undefined> }) => {
      const incoming = request.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    },
  });
  // Nest's own body parser is off: ours (json-body.ts) also bounds nesting depth.
  const options: NestApplicationOptions = { logger: new PinoNestLogger(rootLogger), bodyParser: false };
  const app = await NestFactory.create<NestFastifyApplication>(rootModule, adapter, options);
  const fastify = app.getHttpAdapter().getInstance();

  // PostgreSQL text cannot hold U+0000; a path or query carrying one is refused before it reaches a query.
  fastify.addHook('onRequest', async (request, reply) => {
    if (/%00/.test(request.url)) return reply.status(400).send({ message: 'The URL must not contain NUL (%00) characters' });
  });
  fastify.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  registerJsonBodyParser(fastify);
  // Bodies are JSON unless a route declares otherwise (AcceptsBody): anything else is a 415, on every route.
  registerBodyTypeRule(fastify);
  // Release uploads: one file, a few small fields; the file streams, so its limit is enforced as it arrives.
  await fastify.register(multipart, {
    limits: { files: 1, fields: 8, fieldSize: 16 * 1024, parts: 10, fileSize: config.maxArchiveBytes, headerPairs: 100 },
  });
  const limiterRedis = await registerRateLimit(fastify, config);
  fastify.addHook('onClose', async () => limiterRedis?.disconnect());

  app.useGlobalFilters(new HttpErrorFilter());
  app.useGlobalPipes(createValidationPipe());
  app.useGlobalInterceptors(new BodylessRoutesInterceptor());

  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('svc marketplace API')
      .setDescription('Packages, purchases, wallets, spend policies, organizations and the agent network.')
      .setVersion(VERSION)
      .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'An API token starting with svc_' })
      .build(),
  );
  SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'docs/json', yamlDocumentUrl: 'docs/yaml' });
  return app;
}
