import { AppConfig } from '../../../src/config/app-config';
import { ServiceCallError, ServiceClient, ToolCall } from '../../../src/modules/network/clients/service-client';
import { OutboundGuard } from '../../../src/platform/outbound/outbound-guard';
import { FakeService, startFakeService } from '../../support/fake-services';

const guardFor = (allowPrivate: boolean) =>
  new OutboundGuard({ network: { allowPrivateServiceEndpoints: allowPrivate } } as AppConfig);

const echo = (text: string): ToolCall => ({
  tool: 'echo',
  input: { text },
  callId: `c-${text}`,
  upstreamKey: `k-${text}`,
  timeoutMs: 5_000,
});

describe.each([
  ['streamable_http', 'mcp-streamable'],
  ['sse', 'mcp-sse'],
] as const)('the MCP client pool over %s', (transport, kind) => {
  let service: FakeService;
  let guard: OutboundGuard;
  let client: ServiceClient;
  const address = () => ({ endpoint: service.url, protocol: 'mcp', transport });

  beforeEach(async () => {
    service = await startFakeService(kind);
    guard = guardFor(true);
    client = new ServiceClient(guard);
  });
  afterEach(async () => {
    await client.onApplicationShutdown();
    await guard.onApplicationShutdown();
    await service.close();
  });

  it('keeps one connected client for calls one after another, and one per concurrent caller', async () => {
    await client.call(address(), echo('a'));
    await client.call(address(), echo('b'));
    expect(client.mcpClients.idleCount(service.url, transport)).toBe(1);

    const answers = await Promise.all(['c', 'd', 'e'].map((t) => client.call(address(), echo(t))));
    expect(answers.map((a) => (a.structuredContent as { echo: { text: string } }).echo.text)).toEqual(['c', 'd', 'e']);
    expect(client.mcpClients.idleCount(service.url, transport)).toBe(3);
  });

  it('keeps the client after a tool error, and answers the error', async () => {
    await client.call(address(), echo('a'));
    await expect(client.call(address(), { ...echo('x'), tool: 'fail' })).rejects.toMatchObject({ kind: 'upstream_error' });
    expect(client.mcpClients.idleCount(service.url, transport)).toBe(1);
  });

  it('replaces a connection the server dropped', async () => {
    await client.call(address(), echo('a'));
    expect(client.mcpClients.idleCount(service.url, transport)).toBe(1);
    service.dropConnections();

    const answer = await client.call(address(), echo('after'));
    expect((answer.structuredContent as { echo: { text: string } }).echo.text).toBe('after');
    // The request, sent again on a fresh connection, still carries its call's key.
    expect(service.calls.filter((c) => c.tool === 'echo')).toEqual([
      { tool: 'echo', idempotencyKey: 'k-a' },
      { tool: 'echo', idempotencyKey: 'k-after' },
    ]);
  });

  it('closes a client whose call timed out instead of pooling it', async () => {
    await expect(client.call(address(), { ...echo('x'), tool: 'hang', timeoutMs: 300 })).rejects.toMatchObject({
      kind: 'timeout',
    });
    expect(client.mcpClients.idleCount(service.url, transport)).toBe(0);
  });
});

describe('the MCP client pool and the outbound guard', () => {
  it('refuses a private endpoint, and pools nothing', async () => {
    const service = await startFakeService('mcp-streamable');
    const guard = guardFor(false);
    const client = new ServiceClient(guard);
    try {
      const failure = await client.call({ endpoint: service.url, protocol: 'mcp', transport: null }, echo('a')).catch((e) => e);
      expect(failure).toBeInstanceOf(ServiceCallError);
      expect(failure.message).toMatch(/127\.0\.0\.1/);
      expect(client.mcpClients.idleCount(service.url, null)).toBe(0);
      expect(service.calls).toHaveLength(0);
    } finally {
      await client.onApplicationShutdown();
      await guard.onApplicationShutdown();
      await service.close();
    }
  });

  it('sends every request of a pooled client through the guarded fetch', async () => {
    const service = await startFakeService('mcp-streamable');
    const guard = guardFor(true);
    const client = new ServiceClient(guard);
    const seen: string[] = [];
    const fetch = guard.fetch;
    Object.defineProperty(guard, 'fetch', {
      value: (url: string | URL, init?: RequestInit) => {
        seen.push(String(init?.method ?? 'GET'));
        return fetch(url, init);
      },
    });
    const pooled = new ServiceClient(guard);
    try {
      await pooled.call({ endpoint: service.url, protocol: 'mcp', transport: null }, echo('a'));
      const before = seen.length;
      await pooled.call({ endpoint: service.url, protocol: 'mcp', transport: null }, echo('b'));
      expect(seen.length).toBeGreaterThan(before);
    } finally {
      await pooled.onApplicationShutdown();
      await client.onApplicationShutdown();
      await guard.onApplicationShutdown();
      await service.close();
    }
  });
});
