import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { CliUser } from '../../support/cli';

/**
 * The device flow's edges that the real server reaches only after minutes (expiry)
 * or under a too-eager client (slow_down), on a loopback stand-in speaking RFC 8628 as the spec gives it.
 */
describe('svc login (device flow edges)', () => {
  let server: Server;
  let user: CliUser;
  let polls: string[] = [];
  let script: ('slow_down' | 'authorization_pending' | 'expired' | 'denied' | 'approved')[] = [];

  beforeAll(async () => {
    server = createServer((request, response) => {
      response.setHeader('content-type', 'application/json');
      if (request.url === '/v1/auth/device/start') {
        response.end(
          JSON.stringify({
            deviceCode: 'd'.repeat(40),
            userCode: 'BCDFGHJK',
            verificationUri: 'https://web.example/device',
            expiresIn: 900,
            interval: 1,
          }),
        );
      } else if (request.url === '/v1/auth/device/poll') {
        const next = script.shift() ?? 'expired';
        polls.push(next);
        if (next === 'slow_down') {
          response.statusCode = 429;
          response.end(JSON.stringify({ message: 'slow_down: poll at most every 1 seconds' }));
        } else if (next === 'approved') {
          response.end(
            JSON.stringify({ status: 'approved', token: 'svc_from-the-stand-in', tokenType: 'Bearer', expiresIn: null }),
          );
        } else response.end(JSON.stringify({ status: next }));
      } else if (request.url === '/v1/users/me') {
        response.end(JSON.stringify({ user: { id: 'u-1', email: 'me@example.com', name: null } }));
      } else {
        response.statusCode = 404;
        response.end(JSON.stringify({ message: 'not here' }));
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  beforeEach(async () => {
    polls = [];
    user = await CliUser.create(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  });
  afterEach(() => user?.remove());
  afterAll(() => {
    server?.closeAllConnections();
    return new Promise((resolve) => server?.close(resolve));
  });

  it('keeps polling after slow_down (backing off) until approved, and stores the token', async () => {
    script = ['authorization_pending', 'slow_down', 'approved'];
    const run = await user.run(['login', '--json']);
    expect(run.code).toBe(0);
    expect(polls).toEqual(['authorization_pending', 'slow_down', 'approved']);
    expect(run.json()).toEqual(expect.objectContaining({ ok: true, user: expect.objectContaining({ email: 'me@example.com' }) }));
    expect((await user.run(['whoami', '--json'])).json().tokenSource).toBe('credentials file');
  });

  it('stops on expired with exit code 1 and stores nothing', async () => {
    script = ['authorization_pending', 'expired'];
    const run = await user.run(['login', '--json']);
    expect(run.code).toBe(1);
    expect(run.json().error).toMatch(/expired.*svc login/);
    expect(polls).toEqual(['authorization_pending', 'expired']);
    expect((await user.run(['whoami'])).code).toBe(4);
  });

  it('stops on denied with exit code 1, says so, and stores nothing', async () => {
    script = ['authorization_pending', 'denied', 'approved'];
    const run = await user.run(['login', '--json']);
    expect(run.code).toBe(1);
    expect(run.json().error).toMatch(/denied.*svc login/);
    // Not one poll past the denial.
    expect(polls).toEqual(['authorization_pending', 'denied']);
    expect((await user.run(['whoami'])).code).toBe(4);

    script = ['denied'];
    const human = await user.run(['login']);
    expect(human.code).toBe(1);
    expect(human.stderr).toMatch(/The sign-in was denied/);
  });
});
