import * as http from 'node:http';
import { AddressInfo, LookupFunction } from 'node:net';
import { fetch } from 'undici';
import { DomainError } from '../../../src/platform/errors/domain-error';
import { endpointRefusal, isPublicAddress } from '../../../src/platform/outbound/address-rules';
import { guardedAgent, OutboundAddressRefusedError } from '../../../src/platform/outbound/outbound-guard';
import { checkServiceEndpoint } from '../../../src/platform/outbound/service-endpoint-check';

/**
 * A resolver for names the test owns: `rebind.example` answers what the test last set (a rebinding attack);
 * an entry may hold several addresses, comma-separated.
 */
function fakeResolver(answers: Map<string, string>, asked: string[] = []): LookupFunction {
  return ((hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    asked.push(hostname);
    const found = answers.get(hostname);
    if (!found) return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }));
    const all = found.split(',').map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    if (options.all) return callback(null, all);
    callback(null, all[0].address, all[0].family);
  }) as unknown as LookupFunction;
}

/** What registration answers for an endpoint: null when accepted, else the error's code and message. */
const registering = async (endpoint: string, options: Parameters<typeof checkServiceEndpoint>[1]) => {
  try {
    await checkServiceEndpoint(endpoint, options);
    return null;
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return { code: error.code, message: error.message };
  }
};

const causeOf = async (promise: Promise<unknown>): Promise<unknown> => {
  try {
    await promise;
    return null;
  } catch (error) {
    let e: unknown = error;
    while (e && !(e instanceof OutboundAddressRefusedError) && (e as { cause?: unknown }).cause)
      e = (e as { cause: unknown }).cause;
    return e;
  }
};

describe('the outbound guard', () => {
  let server: http.Server;
  let port: number;

  beforeAll(async () => {
    server = http.createServer((_req, res) => res.end('{"ok":true}'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('classifies addresses: only public unicast ones are public', () => {
    for (const inward of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '::1',
      'fe80::1',
      'fd00::1',
      '::ffff:127.0.0.1',
      '0.0.0.0',
      '100.64.0.1',
    ])
      expect([inward, isPublicAddress(inward)]).toEqual([inward, false]);
    for (const outward of ['93.184.216.34', '2606:4700::1111', '8.8.8.8']) expect(isPublicAddress(outward)).toBe(true);
  });

  it('refuses at registration: http, private address literals and localhost, unless private endpoints are allowed', () => {
    expect(endpointRefusal('http://example.com/mcp', false)).toMatch(/https/);
    expect(endpointRefusal('https://127.0.0.1/mcp', false)).toMatch(/public address/);
    expect(endpointRefusal('https://[::1]/mcp', false)).toMatch(/public address/);
    expect(endpointRefusal('https://localhost/mcp', false)).toMatch(/this machine/);
    expect(endpointRefusal('https://example.com/mcp', false)).toBeNull();
    expect(endpointRefusal('http://127.0.0.1:8080/mcp', true)).toBeNull();
  });

  it('refuses at registration a name that resolves inward, by the same rule and resolver answer as the guard', async () => {
    const answers = new Map([
      ['inward.example', '10.0.0.7'],
      ['mixed.example', '93.184.216.34,127.0.0.1'],
      ['mapped.example', '::ffff:192.168.0.1'],
      ['public.example', '93.184.216.34,2606:4700::1111'],
    ]);
    const lookup = fakeResolver(answers);
    for (const [host, address] of [
      ['inward.example', '10.0.0.7'],
      ['mixed.example', '127.0.0.1'],
      ['mapped.example', '::ffff:192.168.0.1'],
    ]) {
      expect(await registering(`https://${host}/mcp`, { allowPrivate: false, lookup })).toEqual({
        code: 'invalid',
        message: expect.stringContaining(`${host} resolves to ${address}, a private, loopback or link-local address`),
      });
      // The guard refuses the same name for the same reason.
      const agent = guardedAgent(false, lookup);
      const refused = await causeOf(fetch(`http://${host}:${port}/`, { dispatcher: agent }));
      expect(refused).toBeInstanceOf(OutboundAddressRefusedError);
      expect((refused as Error).message).toContain(`${host} resolves to ${address}`);
      await agent.close();
    }
    expect((await registering('https://inward.example/mcp', { allowPrivate: false, lookup }))?.message).toMatch(
      /ALLOW_PRIVATE_SERVICE_ENDPOINTS=true/,
    );
    expect(await registering('https://public.example/mcp', { allowPrivate: false, lookup })).toBeNull();
  });

  it('refuses localhost however it is spelled, and literals, without a lookup', async () => {
    const asked: string[] = [];
    const lookup = fakeResolver(new Map(), asked);
    for (const endpoint of [
      'https://localhost./x',
      'https://LOCALHOST./x',
      'https://api.localhost./x',
      'https://127.0.0.1./x',
      'https://[::1]/x',
    ])
      expect([endpoint, await registering(endpoint, { allowPrivate: false, lookup })]).toEqual([
        endpoint,
        { code: 'invalid', message: expect.stringMatching(/ALLOW_PRIVATE_SERVICE_ENDPOINTS/) },
      ]);
    expect(asked).toEqual([]);
  });

  it('answers 422 for a name that does not resolve, or not in time', async () => {
    expect(await registering('https://nowhere.example/mcp', { allowPrivate: false, lookup: fakeResolver(new Map()) })).toEqual({
      code: 'unprocessable',
      message: expect.stringMatching(/nowhere\.example does not resolve \(ENOTFOUND\)/),
    });
    const silent = (() => undefined) as unknown as LookupFunction;
    expect(await registering('https://slow.example/mcp', { allowPrivate: false, lookup: silent, timeoutMs: 50 })).toEqual({
      code: 'unprocessable',
      message: expect.stringMatching(/slow\.example did not resolve within 0.05 s/),
    });
  });

  it('with ALLOW_PRIVATE_SERVICE_ENDPOINTS looks nothing up and accepts inward names and plain http', async () => {
    const asked: string[] = [];
    const lookup = fakeResolver(new Map([['inward.example', '127.0.0.1']]), asked);
    for (const endpoint of [
      'http://inward.example:8080/mcp',
      'https://localhost./x',
      'http://127.0.0.1:1/',
      'https://nowhere.example/',
    ])
      expect([endpoint, await registering(endpoint, { allowPrivate: true, lookup })]).toEqual([endpoint, null]);
    expect(asked).toEqual([]);
    expect((await registering('https://user:pw@inward.example/', { allowPrivate: true, lookup }))?.message).toMatch(
      /credentials/,
    );
  });

  it('refuses a connection to a private address literal', async () => {
    const agent = guardedAgent(false);
    expect(await causeOf(fetch(`http://127.0.0.1:${port}/`, { dispatcher: agent }))).toBeInstanceOf(OutboundAddressRefusedError);
    await agent.close();
  });

  it('refuses a name that resolves to 127.0.0.1, checked at connect time (localhost and a rebinding name)', async () => {
    const answers = new Map([['rebind.example', '93.184.216.34']]);
    const agent = guardedAgent(false, fakeResolver(answers));
    // Registered while it resolved outward; now it resolves inward.
    answers.set('rebind.example', '127.0.0.1');
    expect(await causeOf(fetch(`http://rebind.example:${port}/`, { dispatcher: agent }))).toBeInstanceOf(
      OutboundAddressRefusedError,
    );
    await agent.close();
    const system = guardedAgent(false);
    expect(await causeOf(fetch(`http://localhost:${port}/`, { dispatcher: system }))).toBeInstanceOf(OutboundAddressRefusedError);
    await system.close();
  });

  it('connects to private addresses when ALLOW_PRIVATE_SERVICE_ENDPOINTS is on', async () => {
    const agent = guardedAgent(true, fakeResolver(new Map([['rebind.example', '127.0.0.1']])));
    const response = await fetch(`http://rebind.example:${port}/`, { dispatcher: agent });
    expect(await response.json()).toEqual({ ok: true });
    await agent.close();
  });
});
