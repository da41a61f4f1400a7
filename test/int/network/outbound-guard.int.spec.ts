import * as http from 'node:http';
import { AddressInfo, LookupFunction } from 'node:net';
import { fetch } from 'undici';
import { endpointRefusal, isPublicAddress } from '../../../src/platform/outbound/address-rules';
import { guardedAgent, OutboundAddressRefusedError } from '../../../src/platform/outbound/outbound-guard';

/** A resolver for names the test owns: `rebind.example` answers what the test last set (a rebinding attack). */
function fakeResolver(answers: Map<string, string>): LookupFunction {
  return ((hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    const address = answers.get(hostname);
    if (!address) return callback(Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }));
    if (options.all) return callback(null, [{ address, family: address.includes(':') ? 6 : 4 }]);
    callback(null, address, address.includes(':') ? 6 : 4);
  }) as unknown as LookupFunction;
}

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
