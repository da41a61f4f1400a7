import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { OutboundAddressRefusedError, OutboundGuard } from '../../../platform/outbound/outbound-guard';
import { McpClientPool } from './mcp-client-pool';

/** Where and how a vendor's service is reached. */
export interface ServiceAddress {
  endpoint: string;
  protocol: string;
  transport: string | null;
}

/** Why a call to a vendor's service failed, told apart because the answer's status differs (502 or 504). */
export class ServiceCallError extends Error {
  constructor(
    readonly kind: 'upstream_error' | 'timeout' | 'protocol_error',
    message: string,
  ) {
    super(message);
    this.name = 'ServiceCallError';
  }
}

export interface ToolCall {
  tool: string;
  input: Record<string, unknown>;
  /** Our id of the call (the usage record's), sent as the JSON-RPC id. */
  callId: string;
  /** The key the vendor can dedupe the call by (see CallServiceHandler.newCall). */
  upstreamKey: string;
  timeoutMs: number;
}

const MAX_UPSTREAM_MESSAGE = 500;

/**
 * Speaks each service protocol through its real client:
 * - `mcp` over `streamable_http` (default) or `sse`: the official SDK client, `tools/call` and `tools/list`;
 *   the key goes in the request's `_meta.idempotencyKey`.
 * - `https` with transport `jsonrpc`: a JSON-RPC 2.0 POST of `tools/call` {name, arguments} (and `tools/list`).
 * - `https` otherwise: a JSON POST of {tool, input}; a 2xx JSON answer is the result (a non-object wrapped as {value}), any other answer an
 *   upstream error with its `message`. Probes GET the endpoint and read `tools` from its JSON answer, if any.
 * The key is an `Idempotency-Key` header for both JSON protocols. Every request carries one, so a request the MCP
 * pool sends again on a fresh connection (see McpClientPool.use) carries the same key, and a vendor that dedupes
 * by key runs the tool once.
 * Every connection goes through the OutboundGuard. MCP clients stay connected between calls (McpClientPool).
 */
@Injectable()
export class ServiceClient implements OnApplicationShutdown {
  readonly mcpClients: McpClientPool;

  constructor(private readonly guard: OutboundGuard) {
    this.mcpClients = new McpClientPool(guard.fetch);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.mcpClients.close();
  }

  /** The tool's result, or a ServiceCallError. */
  async call(address: ServiceAddress, call: ToolCall): Promise<Record<string, unknown>> {
    const signal = AbortSignal.timeout(call.timeoutMs);
    try {
      if (address.protocol === 'mcp') return (await this.callMcp(address, call, signal)) as Record<string, unknown>;
      if (address.protocol === 'https') return asObject(await this.callJson(address, call, signal));
    } catch (error) {
      throw this.failure(error, signal, call.timeoutMs);
    }
    throw new ServiceCallError('protocol_error', `The ${address.protocol} protocol is not supported yet`);
  }

  /** The service's tool names (for probes). */
  async listTools(address: ServiceAddress, timeoutMs: number): Promise<string[]> {
    const signal = AbortSignal.timeout(timeoutMs);
    try {
      if (address.protocol === 'mcp') {
        return await this.withMcp(address, signal, async (client) => {
          const { tools } = await client.listTools(undefined, { signal, timeout: timeoutMs });
          return tools.map((t) => t.name);
        });
      }
      if (address.protocol === 'https' && address.transport === 'jsonrpc') {
        const result = await this.jsonRpc(address.endpoint, 'tools/list', {}, 'probe', undefined, signal);
        return toolNamesIn(result);
      }
      if (address.protocol === 'https') {
        const response = await this.guard.fetch(address.endpoint, {
          method: 'GET',
          signal,
          headers: { accept: 'application/json' },
        });
        const text = await response.text();
        if (!response.ok) throw new ServiceCallError('upstream_error', `The service answered ${response.status}`);
        return toolNamesIn(safeJson(text));
      }
    } catch (error) {
      throw this.failure(error, signal, timeoutMs);
    }
    throw new ServiceCallError('protocol_error', `The ${address.protocol} protocol is not supported yet`);
  }

  /**
   * Delivers a session message to a service that takes messages over JSON
   * (`https`: a POST of {sessionId, message}; `jsonrpc`: the method
   * `session/message` with those params). Its answer, `{responses:[{type,
   * payload, correlationId?}]}` or one `{type, payload}`, are the replies.
   * Answers null for protocols that take no messages (the vendor reads its inbox).
   */
  async deliver(
    address: ServiceAddress,
    sessionId: string,
    message: { id: string; type: string; correlationId: string | null; payload: Record<string, unknown> },
    timeoutMs: number,
  ): Promise<SessionReply[] | null> {
    if (address.protocol !== 'https') return null;
    const signal = AbortSignal.timeout(timeoutMs);
    try {
      const answer =
        address.transport === 'jsonrpc'
          ? await this.jsonRpc(address.endpoint, 'session/message', { sessionId, message }, message.id, undefined, signal)
          : await this.postJson(address.endpoint, { sessionId, message }, signal);
      return repliesIn(answer);
    } catch (error) {
      throw this.failure(error, signal, timeoutMs);
    }
  }

  private async postJson(endpoint: string, body: unknown, signal: AbortSignal): Promise<unknown> {
    const response = await this.guard.fetch(endpoint, {
      method: 'POST',
      signal,
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
    });
    const answer = safeJson(await response.text());
    if (!response.ok)
      throw new ServiceCallError('upstream_error', messageIn(answer) ?? `The service answered ${response.status}`);
    return answer;
  }

  private async callMcp(address: ServiceAddress, call: ToolCall, signal: AbortSignal): Promise<unknown> {
    return this.withMcp(address, signal, async (client) => {
      const result = await client.callTool(
        {
          name: call.tool,
          arguments: call.input,
          _meta: { idempotencyKey: call.upstreamKey },
        },
        undefined,
        { signal, timeout: call.timeoutMs },
      );
      if (result.isError) throw new ServiceCallError('upstream_error', textOf(result.content) ?? 'The tool reported an error');
      const { _meta, ...rest } = result;
      return rest;
    });
  }

  private withMcp<T>(address: ServiceAddress, signal: AbortSignal, work: (client: Client) => Promise<T>): Promise<T> {
    return this.mcpClients.use(address.endpoint, address.transport, signal, work);
  }

  private async callJson(address: ServiceAddress, call: ToolCall, signal: AbortSignal): Promise<unknown> {
    if (address.transport === 'jsonrpc')
      return this.jsonRpc(
        address.endpoint,
        'tools/call',
        { name: call.tool, arguments: call.input },
        call.callId,
        call.upstreamKey,
        signal,
      );
    const response = await this.guard.fetch(address.endpoint, {
      method: 'POST',
      signal,
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        'idempotency-key': call.upstreamKey,
      },
      body: JSON.stringify({ tool: call.tool, input: call.input }),
    });
    const text = await response.text();
    const body = safeJson(text);
    if (!response.ok) throw new ServiceCallError('upstream_error', messageIn(body) ?? `The service answered ${response.status}`);
    if (body === undefined) throw new ServiceCallError('protocol_error', 'The service did not answer JSON');
    return body;
  }

  private async jsonRpc(
    endpoint: string,
    method: string,
    params: Record<string, unknown>,
    id: string,
    idempotencyKey: string | undefined,
    signal: AbortSignal,
  ): Promise<unknown> {
    const response = await this.guard.fetch(endpoint, {
      method: 'POST',
      signal,
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
      },
      body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
    });
    const body = safeJson(await response.text()) as
      { jsonrpc?: string; result?: unknown; error?: { message?: unknown } } | undefined;
    if (body && typeof body === 'object' && body.error)
      throw new ServiceCallError('upstream_error', String(body.error.message ?? 'The service answered a JSON-RPC error'));
    if (!response.ok) throw new ServiceCallError('upstream_error', messageIn(body) ?? `The service answered ${response.status}`);
    if (!body || typeof body !== 'object' || body.jsonrpc !== '2.0' || !('result' in body))
      throw new ServiceCallError('protocol_error', 'The service did not answer a JSON-RPC 2.0 result');
    return body.result;
  }

  private failure(error: unknown, signal: AbortSignal, timeoutMs: number): ServiceCallError {
    if (error instanceof ServiceCallError) return error;
    if (signal.aborted) return new ServiceCallError('timeout', `The service did not answer within ${timeoutMs} ms`);
    const refused = findCause(error, OutboundAddressRefusedError);
    if (refused) return new ServiceCallError('upstream_error', refused.message);
    const message = error instanceof Error ? error.message : String(error);
    // The SDK's McpError carries a JSON-RPC code; anything else is a transport failure (refused, reset).
    const isMcp = typeof (error as { code?: unknown }).code === 'number';
    return new ServiceCallError(isMcp ? 'protocol_error' : 'upstream_error', truncate(describe(error) ?? message));
  }
}

export interface SessionReply {
  type: string;
  payload: Record<string, unknown>;
  correlationId: string | null;
}

const MESSAGE_TYPE = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/;

/** At most 20 well-formed replies; anything else a service answers is ignored. */
function repliesIn(answer: unknown): SessionReply[] {
  if (!answer || typeof answer !== 'object') return [];
  const list = Array.isArray((answer as { responses?: unknown }).responses)
    ? (answer as { responses: unknown[] }).responses
    : [answer];
  return list
    .filter(
      (r): r is { type: string; payload?: unknown; correlationId?: unknown } =>
        !!r &&
        typeof r === 'object' &&
        typeof (r as { type?: unknown }).type === 'string' &&
        (r as { type: string }).type.length <= 64 &&
        MESSAGE_TYPE.test((r as { type: string }).type),
    )
    .slice(0, 20)
    .map((r) => ({
      type: r.type,
      payload:
        r.payload && typeof r.payload === 'object' && !Array.isArray(r.payload) ? (r.payload as Record<string, unknown>) : {},
      correlationId: typeof r.correlationId === 'string' ? r.correlationId.slice(0, 128) : null,
    }));
}

/** Results are JSON objects; any other JSON value a service answers is wrapped as `{value}`. */
const asObject = (value: unknown): Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : { value };

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function messageIn(body: unknown): string | undefined {
  if (body && typeof body === 'object') {
    const { message, error } = body as { message?: unknown; error?: unknown };
    if (typeof message === 'string') return truncate(message);
    if (typeof error === 'string') return truncate(error);
  }
  return undefined;
}

function textOf(content: unknown): string | undefined {
  if (!Array.isArray(content)) return undefined;
  const text = content.find((c) => c && typeof c === 'object' && c.type === 'text' && typeof c.text === 'string');
  return text ? truncate(text.text) : undefined;
}

function toolNamesIn(body: unknown): string[] {
  const tools = (body as { tools?: unknown } | undefined)?.tools;
  if (!Array.isArray(tools)) return [];
  return tools
    .map((t) => (typeof t === 'string' ? t : typeof t?.name === 'string' ? t.name : null))
    .filter((n): n is string => n !== null)
    .slice(0, 200);
}

function findCause<T extends Error>(error: unknown, type: new (...args: never[]) => T): T | undefined {
  for (let e: unknown = error, depth = 0; e && depth < 6; e = (e as { cause?: unknown }).cause, depth++)
    if (e instanceof type) return e;
  return undefined;
}

/** fetch's "fetch failed" hides the reason in `cause`. */
function describe(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  const cause = (error as { cause?: unknown }).cause;
  // Duck-typed: errors from Node's internals may come from another realm (under jest).
  const causeMessage = (cause as { message?: unknown } | undefined)?.message;
  if (error.message === 'fetch failed' && typeof causeMessage === 'string')
    return `The service could not be reached: ${causeMessage}`;
  return error.message;
}

const truncate = (text: string): string =>
  text.length > MAX_UPSTREAM_MESSAGE ? `${text.slice(0, MAX_UPSTREAM_MESSAGE)}…` : text;
