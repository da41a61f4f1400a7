import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { OperationHints, RequestArbitraries } from './arbitraries';
import { Operation, ResponseValidator, SchemaResolver } from './openapi-document';
import { abbreviate, FuzzRequest, send, Sent, toCurl, urlPath } from './requests';
import { FuzzWorld } from './world';

export type Property = 'no-5xx' | 'error-shape' | 'response-schema' | 'dead-letter';

export interface Finding {
  property: Property;
  operation: string;
  /** What makes two findings the same: the property and the cause (mutation kinds, or the schema error). */
  signature: string;
  request: FuzzRequest;
  curl: string;
  status: number;
  body: string;
  detail: string;
}

export interface FuzzOptions {
  runs: number;
  seed: number;
  /** Rounds per operation: each round after a failure ignores the causes already found, to find the next. */
  rounds: number;
  timeLimitMs: number;
  /** Print every request as it is answered. */
  verbose: boolean;
  /** After the random rounds, try each field of a 2xx request with each kind of hostile value. */
  sweep: boolean;
}

interface Violation {
  property: Property;
  signature: string;
  detail: string;
}

const describeMutations = (request: FuzzRequest) =>
  request.mutations.map((m) => `${m.where} ${m.kind}${m.target ? ` (${m.target})` : ''}`).join(' + ') || 'a valid request';

const mutationKinds = (request: FuzzRequest) => request.mutations.map((m) => `${m.where}:${m.kind}`).join('+') || 'valid';

/**
 * 502 and 504 are the answers, by design, of a route that calls a vendor's live service for the caller when
 * that service failed or timed out (the world's service never answers): the outside system's failure, named,
 * and nothing charged. Only those routes may give them; the error shape is still checked.
 */
function vendorsFailure(op: Operation, sent: Sent): boolean {
  const callsAService = /\/call$|\/messages$|^\/v1\/network\/sessions$/.test(op.path) && op.method === 'POST';
  return callsAService && (sent.status === 502 || sent.status === 504);
}

/** The three per-response properties. */
export function judge(op: Operation, request: FuzzRequest, sent: Sent, validator: ResponseValidator): Violation[] {
  const kinds = mutationKinds(request);
  if (sent.status >= 500 && !vendorsFailure(op, sent))
    return [{ property: 'no-5xx', signature: `no-5xx ${kinds}`, detail: describeMutations(request) }];
  if (sent.status >= 400) {
    let body: unknown;
    try {
      body = JSON.parse(sent.text);
    } catch {
      body = undefined;
    }
    const isJson = /^application\/json\b/.test(sent.contentType);
    const message = (body as { message?: unknown } | undefined)?.message;
    if (!isJson || typeof message !== 'string' || !message) {
      return [
        {
          property: 'error-shape',
          signature: `error-shape ${sent.status} ${kinds}`,
          detail: `${describeMutations(request)}: ${sent.status} with content-type "${sent.contentType}" and ${
            body === undefined
              ? 'a body that is not JSON'
              : typeof message !== 'string'
                ? 'no string message'
                : 'an empty message'
          }`,
        },
      ];
    }
    // Fastify's own error body ({statusCode, code, error, message}) means the app's error filter never saw it.
    const fields = body as Record<string, unknown>;
    if ('statusCode' in fields || (typeof fields.code === 'string' && fields.code.startsWith('FST_'))) {
      return [
        {
          property: 'error-shape',
          signature: `error-shape framework ${sent.status} ${String(fields.code)}`,
          detail: `${describeMutations(request)}: ${sent.status} in the framework's error shape (${Object.keys(fields).join(', ')}), not {message}`,
        },
      ];
    }
    return [];
  }
  if (sent.status >= 200 && sent.status < 300) {
    if (!op.responses.has(sent.status)) {
      return [
        {
          property: 'response-schema',
          signature: `response-schema undeclared ${sent.status}`,
          detail: `answered ${sent.status}, which the document does not declare (it declares ${[...op.responses.keys()].join(', ')})`,
        },
      ];
    }
    // A file download is bytes: the document says so (a binary media type), and there is no JSON to validate.
    if (op.fileResponses.has(sent.status) && !/^application\/json\b/.test(sent.contentType)) return [];
    const schema = op.responses.get(sent.status);
    if (!schema) {
      return [
        {
          property: 'response-schema',
          signature: `response-schema no-schema ${sent.status}`,
          detail: `${sent.status} declares no JSON schema`,
        },
      ];
    }
    let body: unknown;
    try {
      body = JSON.parse(sent.text);
    } catch {
      return [
        { property: 'response-schema', signature: `response-schema not-json ${sent.status}`, detail: 'the 2xx body is not JSON' },
      ];
    }
    const errors = validator.check(schema, body);
    if (errors) {
      // Array indices vary from run to run; the field does not.
      const first = errors.split('\n')[0].replace(/\/\d+(?=\/|\s|$)/g, '/*');
      return [{ property: 'response-schema', signature: `response-schema ${sent.status} ${first}`, detail: errors }];
    }
  }
  return [];
}

/** A seed per operation, so adding a route leaves every other operation's sequence as it was. */
function seedFor(base: number, op: Operation, round: number): number {
  return createHash('sha256').update(`${base}:${op.id}:${round}`).digest().readInt32LE(0);
}

export async function fuzzOperation(
  op: Operation,
  arbitraries: RequestArbitraries,
  hints: OperationHints,
  world: FuzzWorld,
  baseUrl: string,
  validator: ResponseValidator,
  resolver: SchemaResolver,
  options: FuzzOptions,
): Promise<{ findings: Finding[]; requests: number; statuses: Map<number, number>; swept: boolean; undeclared: Set<string> }> {
  const known = new Set<string>();
  const findings: Finding[] = [];
  const statuses = new Map<number, number>();
  let requests = 0;
  let base: FuzzRequest | undefined;
  const undeclared = new Set<string>();
  const record = (request: FuzzRequest, sent: Sent, violations: Violation[]) => {
    for (const violation of violations) {
      known.add(violation.signature);
      findings.push({
        property: violation.property,
        operation: op.id,
        signature: violation.signature,
        request,
        curl: toCurl(request, world),
        status: sent.status,
        body: sent.text.slice(0, 500),
        detail: violation.detail,
      });
    }
  };
  const attempt = async (request: FuzzRequest) => {
    let sent: Sent;
    try {
      sent = await send(baseUrl, request, world);
    } catch (error) {
      // A connection the server dropped is as bad as a 500.
      sent = { status: 599, contentType: '', text: `no response: ${(error as Error).message}` };
    }
    requests++;
    statuses.set(sent.status, (statuses.get(sent.status) ?? 0) + 1);
    if (options.verbose)
      process.stdout.write(
        `${sent.status} ${request.caller.padEnd(9)} ${urlPath(request).slice(0, 100)}  ${describeMutations(request)}\n`,
      );
    const parked = await world.newDeadLetters();
    await world.afterResponse(request, sent);
    const violations = judge(op, request, sent, validator);
    const schema = op.responses.get(sent.status);
    if (schema && sent.status < 300 && violations.length === 0)
      for (const field of resolver.undeclaredFields(schema, JSON.parse(sent.text))) undeclared.add(`${sent.status} ${field}`);
    // Its answer waited for the projections to apply its events, so what they parked meanwhile is most likely its doing.
    if (parked.length)
      violations.push({
        property: 'dead-letter',
        // The parked error names the column or rule, so each distinct cause is reported once.
        signature: `dead-letter ${parked[0].replace(/[0-9a-f-]{36}/g, '*')}`,
        detail: `${describeMutations(request)}: answered ${sent.status}, then ${parked.join('; ')}`,
      });
    if (!base && request.mutations.length === 0 && sent.status >= 200 && sent.status < 300) base = request;
    return { sent, violations: violations.filter((v) => !known.has(v.signature)) };
  };

  const arbitrary = arbitraries.forOperation(op, hints);
  for (let round = 0; round < options.rounds; round++) {
    let lastFailure: { request: FuzzRequest; sent: Sent; violations: Violation[] } | undefined;
    const property = fc.asyncProperty(arbitrary, async (request) => {
      const { sent, violations } = await attempt(request);
      if (violations.length === 0) return true;
      // The last failure seen is the shrunk counterexample fast-check reports.
      lastFailure = { request, sent, violations };
      return false;
    });
    const result = await fc.check(property, {
      seed: seedFor(options.seed, op, round),
      numRuns: options.runs,
      interruptAfterTimeLimit: options.timeLimitMs,
    });
    if (!result.failed) break;
    if (!lastFailure) throw new Error(`${op.id}: the property threw: ${String(result.errorInstance)}`);
    record(lastFailure.request, lastFailure.sent, lastFailure.violations);
  }

  // Each field of a request that worked, one hostile value at a time.
  const swept = base !== undefined;
  if (base && options.sweep) {
    for (const request of arbitraries.sweep(op, base)) {
      const { sent, violations } = await attempt(request);
      record(request, sent, violations);
    }
  }
  return { findings, requests, statuses, swept, undeclared };
}

export function formatFindings(findings: Finding[]): string {
  return findings
    .map(
      (f, i) =>
        `${i + 1}. ${f.operation}: ${f.detail}\n` +
        `   answered ${f.status} ${abbreviate(f.body).replace(/\s+/g, ' ')}\n` +
        f.curl
          .split('\n')
          .map((line) => `   ${line}`)
          .join('\n'),
    )
    .join('\n\n');
}
