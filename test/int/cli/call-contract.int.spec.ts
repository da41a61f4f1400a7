import { createServer, IncomingMessage, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { CliUser } from '../../support/cli';

/**
 * `svc call` against the spec's contract for POST /v1/services/{vendor}/{slug}/call,
 * served by a loopback stand-in until the agent-network routes land (then an e2e replaces this).
 */
describe('svc call (contract)', () => {
  let server: Server;
  let user: CliUser;
  const seen: { path: string; authorization?: string; body: Record<string, unknown> }[] = [];

  const read = async (request: IncomingMessage) => {
    let text = '';
    for await (const chunk of request) text += chunk;
    return JSON.parse(text || '{}');
  };

  beforeAll(async () => {
    server = createServer(async (request, response) => {
      const body = await read(request);
      seen.push({ path: request.url ?? '', authorization: request.headers.authorization, body });
      response.setHeader('content-type', 'application/json');
      if (body.tool === 'expensive') {
        response.statusCode = 402;
        response.end(JSON.stringify({ message: 'The call would cost 90 cents, more than maxCostCents 10' }));
        return;
      }
      response.end(
        JSON.stringify({
          result: { echoed: body.input ?? null },
          costCents: 3,
          walletBalanceCents: 497,
          usageRecordId: 'u-1',
          durationMs: 12,
        }),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    user = await CliUser.create(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, { SVC_TOKEN: 'svc_test-token' });
  });
  afterAll(async () => {
    await user?.remove();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });

  it('sends the tool, input and ceiling with the token, and prints the result as JSON', async () => {
    const run = await user.run(['call', 'acme/search', 'lookup', '--input', '{"q":"pdf"}', '--max-cost', '5', '--json']);
    expect(run.code).toBe(0);
    expect(run.json()).toEqual({
      result: { echoed: { q: 'pdf' } },
      costCents: 3,
      walletBalanceCents: 497,
      usageRecordId: 'u-1',
      durationMs: 12,
    });
    expect(seen.at(-1)).toEqual({
      path: '/v1/services/acme/search/call',
      authorization: 'Bearer svc_test-token',
      body: { tool: 'lookup', input: { q: 'pdf' }, maxCostCents: 5 },
    });
  });

  it('exits 3 on 402, 2 on input that is not a JSON object, 4 without a token', async () => {
    const dear = await user.run(['call', 'acme/search', 'expensive', '--max-cost', '10', '--json']);
    expect(dear.code).toBe(3);
    expect(dear.json().error).toMatch(/more than maxCostCents/);
    const count = seen.length;
    expect((await user.run(['call', 'acme/search', 'lookup', '--input', '[1,2]'])).code).toBe(2);
    expect((await user.run(['call', 'acme/search', 'lookup', '--input', '{nope'])).code).toBe(2);
    expect((await user.run(['call', 'acme/search', 'lookup'], { env: { SVC_TOKEN: undefined } })).code).toBe(4);
    expect(seen.length).toBe(count);
  });
});
