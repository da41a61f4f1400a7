import * as http from 'node:http';
import { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

/**
 * Vendors' live services on loopback, speaking the real protocols. Every
 * kind has the same tools: `echo` (answers its input and the Idempotency-Key
 * it saw), `fail` (an error with the message "the tool broke"), `hang`
 * (never answers), `drop` (closes the connection) and `flaky` (fails its first call only; JSON kinds only). The JSON kinds
 * answer a session message `m` of type `t` with one reply `{type: "t.reply", payload: {got: m.payload}}`.
 */
export interface FakeService {
  url: string;
  /** Tool calls received, with the Idempotency-Key each carried (header, or MCP `_meta.idempotencyKey`). */
  readonly calls: { tool: string; idempotencyKey: string | null }[];
  /** Session messages delivered to it (JSON kinds only), by type. */
  readonly messages: { sessionId: string; type: string }[];
  close(): Promise<void>;
  /** Closes every open connection (SSE streams too); the server keeps listening. */
  dropConnections(): void;
}

export type FakeServiceKind = 'https' | 'jsonrpc' | 'mcp-streamable' | 'mcp-sse';

const TOOLS = ['echo', 'fail', 'hang', 'drop'];

export async function startFakeService(kind: FakeServiceKind): Promise<FakeService> {
  const calls: FakeService['calls'] = [];
  const messages: FakeService['messages'] = [];
  const hanging = new Set<() => void>();
  const hang = () => new Promise<never>((resolve) => hanging.add(resolve as () => void));
  const sseTransports = new Map<string, SSEServerTransport>();

  const mcpServer = () => {
    const server = new McpServer({ name: 'fake-vendor', version: '1.0.0' });
    // Typed loosely: the SDK's zod generics are too deep for the compiler here.
    const register = server.registerTool.bind(server) as unknown as (
      name: string,
      config: { description: string; inputSchema?: unknown },
      handler: (args: { text?: string }, extra: { _meta?: Record<string, unknown> }) => Promise<unknown>,
    ) => void;
    register('echo', { description: 'Echoes', inputSchema: { text: z.string().optional() } }, async (args, extra) => {
      const idempotencyKey = (extra._meta?.idempotencyKey as string | undefined) ?? null;
      calls.push({ tool: 'echo', idempotencyKey });
      return { content: [{ type: 'text', text: args.text ?? '' }], structuredContent: { echo: args, idempotencyKey } };
    });
    register('fail', { description: 'Fails' }, async () => {
      calls.push({ tool: 'fail', idempotencyKey: null });
      throw new Error('the tool broke');
    });
    register('hang', { description: 'Hangs' }, async () => {
      calls.push({ tool: 'hang', idempotencyKey: null });
      return hang();
    });
    return server;
  };

  const readBody = async (req: http.IncomingMessage): Promise<unknown> => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    return text ? JSON.parse(text) : undefined;
  };

  const send = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };

  /** https and jsonrpc: the tool by name, answered as JSON. */
  const jsonTool = async (tool: string, input: unknown, key: string | null, req: http.IncomingMessage) => {
    calls.push({ tool, idempotencyKey: key });
    if (tool === 'hang') await hang();
    if (tool === 'drop') {
      req.socket.destroy();
      return null;
    }
    if (tool === 'fail') return { error: 'the tool broke' };
    if (tool === 'flaky' && calls.filter((c) => c.tool === 'flaky').length === 1) return { error: 'not this time' };
    return { ok: { echo: input, idempotencyKey: key } };
  };

  const server = http.createServer((req, res) => {
    void (async () => {
      const key = (req.headers['idempotency-key'] as string | undefined) ?? null;
      if (kind === 'mcp-streamable') {
        const mcp = mcpServer();
        const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
        res.on('close', () => void transport.close().then(() => mcp.close()));
        await mcp.connect(transport);
        await transport.handleRequest(req, res);
        return;
      }
      if (kind === 'mcp-sse') {
        if (req.method === 'GET') {
          const transport = new SSEServerTransport('/messages', res);
          sseTransports.set(transport.sessionId, transport);
          res.on('close', () => sseTransports.delete(transport.sessionId));
          await mcpServer().connect(transport);
          return;
        }
        const sessionId = new URL(req.url ?? '/', 'http://x').searchParams.get('sessionId') ?? '';
        const transport = sseTransports.get(sessionId);
        if (!transport) return send(res, 404, { message: 'no such session' });
        await transport.handlePostMessage(req, res);
        return;
      }
      if (req.method === 'GET') return send(res, 200, { tools: TOOLS.map((name) => ({ name })) });
      const body = (await readBody(req)) as Record<string, unknown> | undefined;
      if (kind === 'jsonrpc') {
        const { id, method, params } = body as { id: unknown; method: string; params: { name?: string; arguments?: unknown } };
        if (method === 'session/message') {
          const { sessionId, message } = params as unknown as { sessionId: string; message: { type: string; payload: unknown } };
          messages.push({ sessionId, type: message.type });
          return send(res, 200, {
            jsonrpc: '2.0',
            id,
            result: { type: `${message.type}.reply`, payload: { got: message.payload } },
          });
        }
        if (method === 'tools/list')
          return send(res, 200, { jsonrpc: '2.0', id, result: { tools: TOOLS.map((name) => ({ name })) } });
        const answer = await jsonTool(params.name ?? '', params.arguments, key, req);
        if (!answer) return;
        if ('error' in answer) return send(res, 200, { jsonrpc: '2.0', id, error: { code: -32000, message: answer.error } });
        return send(res, 200, { jsonrpc: '2.0', id, result: answer.ok });
      }
      if (body?.message) {
        const { sessionId, message } = body as { sessionId: string; message: { type: string; payload: unknown } };
        messages.push({ sessionId, type: message.type });
        return send(res, 200, { responses: [{ type: `${message.type}.reply`, payload: { got: message.payload } }] });
      }
      const answer = await jsonTool(String(body?.tool ?? ''), body?.input, key, req);
      if (!answer) return;
      if ('error' in answer) return send(res, 500, { message: answer.error });
      return send(res, 200, answer.ok);
    })().catch((error) => {
      if (!res.headersSent) send(res, 500, { message: String(error) });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const path = kind === 'mcp-sse' ? '/sse' : kind === 'mcp-streamable' ? '/mcp' : '/';
  return {
    url: `http://127.0.0.1:${port}${path}`,
    calls,
    messages,
    dropConnections: () => server.closeAllConnections(),
    async close() {
      for (const release of hanging) release();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * For apps that test calls against these services: on a machine shared by
 * several test runs, projections can lag past the default read-your-writes
 * bound and polling helpers can pass the rate limit.
 */
export const PATIENT = { READ_YOUR_WRITES_TIMEOUT_MS: '30000', RATE_LIMIT_MAX: '1000000' };
