import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FetchLike, Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { VERSION } from '../../../platform/version';

export interface McpPoolLimits {
  /** Idle connected clients kept per endpoint; more concurrent callers connect extra ones, closed after use. */
  idlePerEndpoint: number;
  /** Endpoints with idle clients; the least recently used endpoint's clients are closed past it. */
  endpoints: number;
  /** An idle client unused this long is closed. */
  idleMs: number;
}

export const DEFAULT_MCP_POOL_LIMITS: McpPoolLimits = { idlePerEndpoint: 16, endpoints: 200, idleMs: 30_000 };

interface Idle {
  client: Client;
  since: number;
}

/**
 * Connected MCP SDK clients kept per endpoint and transport, so a call skips
 * the initialize handshake. A client serves one call at a time; it goes back
 * to the pool only after a call that ended well (a tool error is still a good
 * answer), and is closed on any transport failure or timeout. Every request
 * still goes through `fetch` (the OutboundGuard), so the guard applies per call.
 */
export class McpClientPool {
  private readonly idle = new Map<string, Idle[]>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly fetch: FetchLike,
    private readonly limits: McpPoolLimits = DEFAULT_MCP_POOL_LIMITS,
  ) {
    this.sweeper = setInterval(() => this.sweep(), Math.max(1_000, limits.idleMs / 2));
    this.sweeper.unref();
  }

  /**
   * Runs `work` with a connected client. A pooled client whose session the
   * server no longer knows (HTTP 404, per the streamable HTTP spec) or whose
   * connection dropped before the request was sent is replaced by a fresh one once.
   */
  async use<T>(
    endpoint: string,
    transport: string | null,
    signal: AbortSignal,
    work: (client: Client) => Promise<T>,
  ): Promise<T> {
    const key = `${transport === 'sse' ? 'sse' : 'streamable_http'} ${endpoint}`;
    const pooled = this.take(key);
    if (pooled) {
      try {
        return await this.run(key, pooled, work);
      } catch (error) {
        if (!isStaleConnection(error) || signal.aborted) throw error;
      }
    }
    const client = await this.connect(endpoint, transport, signal);
    return this.run(key, client, work);
  }

  /** Idle clients per endpoint key (for tests). */
  idleCount(endpoint: string, transport: string | null): number {
    return this.idle.get(`${transport === 'sse' ? 'sse' : 'streamable_http'} ${endpoint}`)?.length ?? 0;
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    const all = [...this.idle.values()].flat();
    this.idle.clear();
    await Promise.all(all.map(({ client }) => client.close().catch(() => undefined)));
  }

  private async run<T>(key: string, client: Client, work: (client: Client) => Promise<T>): Promise<T> {
    let healthy = false;
    try {
      const result = await work(client);
      healthy = true;
      return result;
    } catch (error) {
      healthy = isToolAnswer(error);
      throw error;
    } finally {
      if (healthy) this.give(key, client);
      else void client.close().catch(() => undefined);
    }
  }

  private async connect(endpoint: string, transport: string | null, signal: AbortSignal): Promise<Client> {
    const url = new URL(endpoint);
    const channel: Transport =
      transport === 'sse'
        ? new SSEClientTransport(url, { fetch: this.fetch })
        : new StreamableHTTPClientTransport(url, { fetch: this.fetch });
    const client = new Client({ name: 'svc-network', version: VERSION });
    try {
      await client.connect(channel, { signal });
    } catch (error) {
      await client.close().catch(() => undefined);
      throw error;
    }
    return client;
  }

  private take(key: string): Client | undefined {
    const list = this.idle.get(key);
    const now = Date.now();
    while (list && list.length > 0) {
      const entry = list.pop()!;
      if (now - entry.since < this.limits.idleMs && !closed.has(entry.client)) {
        if (list.length === 0) this.idle.delete(key);
        return entry.client;
      }
      void entry.client.close().catch(() => undefined);
    }
    this.idle.delete(key);
    return undefined;
  }

  private give(key: string, client: Client): void {
    if (closed.has(client)) return;
    const list = this.idle.get(key) ?? [];
    // Re-inserting keeps the map in least-recently-used order.
    this.idle.delete(key);
    if (list.length >= this.limits.idlePerEndpoint) {
      void client.close().catch(() => undefined);
    } else {
      watchClose(client);
      list.push({ client, since: Date.now() });
    }
    this.idle.set(key, list);
    while (this.idle.size > this.limits.endpoints) {
      const [oldest, clients] = this.idle.entries().next().value as [string, Idle[]];
      this.idle.delete(oldest);
      for (const { client: c } of clients) void c.close().catch(() => undefined);
    }
  }

  private sweep(): void {
    const now = Date.now();
    for (const [key, list] of this.idle) {
      const keep = list.filter((e) => now - e.since < this.limits.idleMs && !closed.has(e.client));
      for (const e of list) if (!keep.includes(e)) void e.client.close().catch(() => undefined);
      if (keep.length === 0) this.idle.delete(key);
      else this.idle.set(key, keep);
    }
  }
}

/** Clients whose transport closed (an SSE stream the server dropped): never handed out again. */
const closed = new WeakSet<Client>();

function watchClose(client: Client): void {
  if (client.onclose) return;
  client.onclose = () => closed.add(client);
}

/** The server answered; the connection is fine (the ServiceCallError for `isError` results). */
function isToolAnswer(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  // -32000 connection closed, -32001 request timeout: the SDK's own, not the server's answer.
  if (typeof code === 'number' && !(error instanceof StreamableHTTPError)) return code !== -32000 && code !== -32001;
  return (error as { name?: unknown })?.name === 'ServiceCallError' && (error as { kind?: unknown }).kind === 'upstream_error';
}

/** Safe to retry on a fresh connection: the server did not run the request. */
function isStaleConnection(error: unknown): boolean {
  if (error instanceof StreamableHTTPError) return error.code === 404;
  const message = error instanceof Error ? error.message : '';
  return /^Not connected$|\(HTTP 404\)/.test(message) || /ECONNREFUSED|other side closed/.test(describeCause(error));
}

function describeCause(error: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = error, depth = 0; e && depth < 6; e = (e as { cause?: unknown }).cause, depth++) {
    const message = (e as { message?: unknown }).message;
    const code = (e as { code?: unknown }).code;
    if (typeof message === 'string') parts.push(message);
    if (typeof code === 'string') parts.push(code);
  }
  return parts.join(' ');
}
