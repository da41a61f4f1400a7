import { writeFileSync } from 'node:fs';
import { Type } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { ModulesContainer } from '@nestjs/core';
import { getMetadataStorage } from 'class-validator';
import { DataSource } from 'typeorm';
import { ACCESS } from '../../src/platform/http/access';
import { processorStatuses } from '../../src/projections/cli/projections-cli';
import { startTestApp, TestApp } from '../support/app';
import { testRedisUrl } from '../support/database';
import { FakeDns, startFakeDns } from '../support/fake-dns';
import { FakeGithub, startFakeGithub } from '../support/fake-github';
import { OperationHints, RequestArbitraries } from './arbitraries';
import { Finding, formatFindings, fuzzOperation, FuzzOptions, Property } from './fuzzer';
import { OpenApiDocument, Operation, operationsOf, ResponseValidator, SchemaResolver } from './openapi-document';
import { CallerKey } from './requests';
import { FuzzWorld } from './world';

/**
 * Walks every operation of the served OpenAPI document with generated requests,
 * valid and mutated, against the real server. FUZZ_RUNS (requests per operation
 * and round), FUZZ_SEED (default fixed, so a run is repeatable), FUZZ_ROUNDS,
 * FUZZ_ONLY (a regular expression over `METHOD /path`), FUZZ_VERBOSE=1 (print every request),
 * FUZZ_REPORT (a file to write the findings to, as JSON), FUZZ_SWEEP=0 (random requests only).
 */
const options: FuzzOptions = {
  runs: positive('FUZZ_RUNS', 200),
  seed: integer('FUZZ_SEED', 20),
  rounds: positive('FUZZ_ROUNDS', 3),
  timeLimitMs: positive('FUZZ_OPERATION_TIME_LIMIT_MS', 60_000),
  verbose: process.env.FUZZ_VERBOSE === '1',
  sweep: process.env.FUZZ_SWEEP !== '0',
};
const only = process.env.FUZZ_ONLY ? new RegExp(process.env.FUZZ_ONLY) : undefined;

function integer(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isSafeInteger(value)) throw new Error(`${name} must be an integer`);
  return value;
}

function positive(name: string, fallback: number): number {
  const value = integer(name, fallback);
  if (value < 1) throw new Error(`${name} must be a positive integer`);
  return value;
}

interface Handler {
  controller: Type;
  method: string;
}

/** Controllers by the operationId @nestjs/swagger gives their routes (`Controller_method`). */
function handlersByOperationId(app: TestApp): Map<string, Handler> {
  const handlers = new Map<string, Handler>();
  for (const module of app.server.app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as Type | null;
      if (!controller) continue;
      for (const method of Object.getOwnPropertyNames(controller.prototype)) {
        if (method !== 'constructor') handlers.set(`${controller.name}_${method}`, { controller, method });
      }
    }
  }
  return handlers;
}

/** The route's declared access, to send mostly tokens that get in (the document names no scopes). */
function hintsFor(handler: Handler | undefined): OperationHints {
  const scoped: CallerKey[] = ['read', 'purchase', 'download', 'sell', 'all'];
  if (!handler) return { callers: scoped };
  const access =
    Reflect.getMetadata(ACCESS, handler.controller.prototype[handler.method]) ?? Reflect.getMetadata(ACCESS, handler.controller);
  switch (access?.kind) {
    case 'public':
    case 'optional':
      return { callers: ['anonymous', ...scoped] };
    case 'scope':
      return { callers: [access.scope, 'all'] };
    default:
      return { callers: scoped };
  }
}

/** Operations whose document lacks a schema the suite needs; each line names the gap. */
function missingSchemas(operations: Operation[], handlers: Map<string, Handler>): string[] {
  const gaps: string[] = [];
  for (const op of operations) {
    const success = [...op.responses.entries()].filter(([status]) => status >= 200 && status < 300 && status !== 204);
    if (success.length === 0) gaps.push(`${op.id}: no 2xx response declared`);
    for (const [status, schema] of success)
      if (!schema && !op.fileResponses.has(status)) gaps.push(`${op.id}: the ${status} response has no JSON schema`);
    for (const p of op.parameters) {
      const s = p.schema ?? {};
      if (!s.type && !s.$ref && !s.enum && !s.allOf && !s.oneOf && !s.anyOf)
        gaps.push(`${op.id}: ${p.in} parameter "${p.name}" has no schema type`);
    }
    const handler = op.operationId ? handlers.get(op.operationId) : undefined;
    if (!handler) continue;
    const args: Record<string, { index: number; data?: unknown }> =
      Reflect.getMetadata(ROUTE_ARGS_METADATA, handler.controller, handler.method) ?? {};
    const kinds = Object.entries(args).map(([key, arg]) => ({ type: Number(key.split(':')[0]), ...arg }));
    if (['POST', 'PUT', 'PATCH'].includes(op.method)) {
      // @Body() reads the parsed body; @Req() is how raw (multipart) bodies are read.
      const readsBody = kinds.some((k) => k.type === RouteParamtypes.BODY || k.type === RouteParamtypes.REQUEST);
      if (readsBody && !op.body) gaps.push(`${op.id}: reads a request body the document does not declare`);
      if (op.body && !op.body.schema) gaps.push(`${op.id}: the request body (${op.body.contentType}) has no schema`);
    }
    // Query parameters the handler reads (@Query('name'), or the fields of a @Query() DTO) must be declared too.
    const declared = new Set(op.parameters.filter((p) => p.in === 'query').map((p) => p.name));
    const types: unknown[] = Reflect.getMetadata('design:paramtypes', handler.controller.prototype, handler.method) ?? [];
    for (const arg of kinds.filter((k) => k.type === RouteParamtypes.QUERY)) {
      const names =
        typeof arg.data === 'string'
          ? [arg.data]
          : typeof types[arg.index] === 'function'
            ? getMetadataStorage()
                .getTargetValidationMetadatas(types[arg.index] as new () => unknown, '', true, false)
                .map((m) => m.propertyName)
            : [];
      for (const name of new Set(names))
        if (!declared.has(name)) gaps.push(`${op.id}: reads query parameter "${name}", which the document does not declare`);
    }
  }
  return gaps;
}

describe('fuzz: every operation of the OpenAPI document', () => {
  let app: TestApp;
  let dns: FakeDns;
  let github: FakeGithub;
  let operations: Operation[];
  let handlers: Map<string, Handler>;
  const findings: Finding[] = [];

  beforeAll(async () => {
    const started = Date.now();
    const redis = testRedisUrl();
    // Loopback stand-ins, so verification routes do their real work without leaving the machine.
    dns = await startFakeDns();
    github = await startFakeGithub({ clientId: 'fuzz-client', clientSecret: 'fuzz-secret' });
    app = await startTestApp({
      env: {
        DNS_SERVERS: dns.address,
        GITHUB_CLIENT_ID: 'fuzz-client',
        GITHUB_CLIENT_SECRET: 'fuzz-secret',
        GITHUB_OAUTH_URL: github.url,
        GITHUB_API_URL: github.url,
        // One client address sends everything; the limiter would otherwise answer most of it.
        RATE_LIMIT_MAX: '10000000',
        TRUST_PROXY: 'true',
        ...(redis ? { REDIS_URL: redis, QUEUE_PREFIX: `${process.env.SVC_TEST_RUN_ID ?? 'svc-test'}-fuzz` } : {}),
      },
    });
    const document = (await (await fetch(`${app.url}/docs/json`)).json()) as OpenApiDocument;
    operations = operationsOf(document).filter((op) => !only || only.test(op.id));
    handlers = handlersByOperationId(app);
    const world = await FuzzWorld.create(app, operationsOf(document), { dns, github });
    const resolver = new SchemaResolver(document);
    const arbitraries = new RequestArbitraries(resolver, world.seeds);
    const validator = new ResponseValidator(document);

    const lines: string[] = [];
    const unswept: string[] = [];
    const drift: string[] = [];
    // Destructive operations (deleting the account, revoking the presented token) go last, so the rest see live seeds.
    const ordered = [...operations].sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'));
    for (const op of ordered) {
      // What earlier operations changed (the vendor's website, a listing's status) is put back first.
      await world.restore();
      const began = Date.now();
      const handler = op.operationId ? handlers.get(op.operationId) : undefined;
      const result = await fuzzOperation(op, arbitraries, hintsFor(handler), world, app.url, validator, resolver, options);
      if (!result.swept) unswept.push(op.id);
      if (result.undeclared.size) drift.push(`${op.id}: ${[...result.undeclared].join(', ')}`);
      findings.push(...result.findings);
      const statuses = [...result.statuses.entries()].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`);
      lines.push(
        `${op.id.padEnd(52)} ${String(result.requests).padStart(4)} requests ${((Date.now() - began) / 1000).toFixed(1).padStart(5)} s  ${statuses.join(' ')}`,
      );
    }
    console.log(
      `fuzz: seed ${options.seed}, ${options.runs} runs per operation and round, ${((Date.now() - started) / 1000).toFixed(0)} s\n${lines.join('\n')}` +
        (unswept.length ? `\nno valid request was answered 2xx, so no sweep, for: ${unswept.join(', ')}` : '') +
        // Extra fields do not break clients, so they are shown, not failed.
        (drift.length ? `\n2xx fields the document does not declare:\n  ${drift.join('\n  ')}` : ''),
    );
    if (process.env.FUZZ_REPORT) {
      const report = findings.map(({ request: _request, ...finding }) => finding);
      writeFileSync(
        process.env.FUZZ_REPORT,
        JSON.stringify({ seed: options.seed, runs: options.runs, findings: report }, null, 2),
      );
    }
  });
  afterAll(async () => {
    await app?.close();
    await dns?.close();
    await github?.close();
  });

  const report = (property: Property) => {
    const found = findings.filter((f) => f.property === property);
    if (found.length)
      throw new Error(
        `${found.length} failing input(s) (FUZZ_SEED=${options.seed} FUZZ_RUNS=${options.runs} replays this run; ` +
          `$BASE is the server, $TOKEN_<scope> a token of that scope, ids are this run's seeded resources):\n\n${formatFindings(found)}\n`,
      );
  };

  it('declares a request and response schema for every operation', () => {
    const gaps = missingSchemas(operations, handlers);
    if (gaps.length) throw new Error(`the OpenAPI document lacks schemas:\n  ${gaps.join('\n  ')}`);
  });

  it('answers no request with a 5xx', () => report('no-5xx'));

  it('answers every refused request with JSON carrying a string message', () => report('error-shape'));

  it('answers every 2xx with a body the document declares for that status', () => report('response-schema'));

  it('leaves no dead letter, and every projection and process manager caught up', async () => {
    const deadline = Date.now() + 60_000;
    let statuses = await processorStatuses(app.server.app);
    while (statuses.some((s) => s.lag > 0) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
      statuses = await processorStatuses(app.server.app);
    }
    const dead = await app.server.app
      .get(DataSource)
      .query('SELECT processor, event_type, error FROM processor_dead_letters ORDER BY failed_at');
    const problems = [
      ...statuses.filter((s) => s.lag > 0).map((s) => `${s.name} is ${s.lag} events behind the log head`),
      ...dead.map(
        (d: { processor: string; event_type: string; error: string }) => `${d.processor} parked ${d.event_type}: ${d.error}`,
      ),
    ];
    const culprits = findings.filter((f) => f.property === 'dead-letter');
    if (problems.length || culprits.length)
      throw new Error(
        `after the fuzz run:\n  ${problems.join('\n  ')}` +
          (culprits.length ? `\n\naccepted requests whose events were parked:\n\n${formatFindings(culprits)}\n` : ''),
      );
  });
});
