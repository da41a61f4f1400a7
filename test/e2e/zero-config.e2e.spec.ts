import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { isAlive } from '../../src/platform/database/embedded-postgres';
import { eventually } from '../support/eventually';
import { ensureBuilt, HeldRequest, ROOT, ServerProcess } from '../support/server-process';

describe('zero-configuration start', () => {
  let dataDir: string;
  let server: ServerProcess | undefined;
  // Nothing but what any shell has: no DATABASE_URL, no REDIS_URL, no DATA_DIR. The working directory is a
  // fresh private (0700) directory, so the default ./.data lands there; the tests share its cluster.
  const shellEnv = { PATH: process.env.PATH, HOME: process.env.HOME };
  const postgresPid = () => Number(readFileSync(path.join(dataDir, '.data/postgres/postmaster.pid'), 'utf8').split('\n')[0]);

  beforeAll(() => {
    ensureBuilt();
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'svc-zero-config-'));
  });

  afterEach(() => server?.kill());

  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('loads the embedded-postgres package without its exit hooks, so only the service handles signals', () => {
    const script = `
      const { loadEmbeddedPostgres } = require(${JSON.stringify(path.join(ROOT, 'dist/platform/database/embedded-postgres.js'))});
      const events = ['SIGTERM', 'SIGINT', 'SIGHUP', 'SIGBREAK', 'beforeExit', 'exit', 'message'];
      loadEmbeddedPostgres().then(() => console.log(JSON.stringify(events.map((e) => [e, process.listenerCount(e)]))));`;
    const counts = JSON.parse(execFileSync(process.execPath, ['-e', script], { cwd: ROOT }).toString());
    expect(Object.fromEntries(counts)).toEqual({
      SIGTERM: 0,
      SIGINT: 0,
      SIGHUP: 0,
      SIGBREAK: 0,
      beforeExit: 0,
      exit: 0,
      message: 0,
    });
  });

  it('serves /health with an empty environment; on SIGTERM it stops listening, answers the request in flight, and exits 0', async () => {
    server = await ServerProcess.start(shellEnv, dataDir);
    const health = await fetch(`${server.url}/health`);
    expect(await health.json()).toEqual({ ok: true, version: expect.any(String), status: 'healthy' });
    expect(server.output).toContain('embedded PostgreSQL');
    expect(server.output).not.toMatch(/"level":50/); // nothing logged at error level
    const postgres = postgresPid();
    expect(isAlive(postgres)).toBe(true);

    // A command in flight: the server has its headers, its body is still to come.
    const held = await HeldRequest.open(server.port, 'POST', '/v1/auth/device/start', '{}');
    await server.signal('SIGTERM');
    await eventually(() => server!.refusesConnections(), { description: 'the server to stop listening' });
    const response = await held.finish();

    expect(response.status).toBe(200);
    expect(Buffer.byteLength(response.body)).toBe(Number(response.headers['content-length']));
    expect(JSON.parse(response.body)).toMatchObject({ deviceCode: expect.any(String), userCode: expect.any(String) });
    expect(response.headers.connection).toBe('close');
    await server.expectExit(0);
    expect(isAlive(postgres)).toBe(false);
    expect(server.output).toContain('stopped cleanly');
    expect(server.output).not.toMatch(/"level":(40|50)/);
  });

  it('on Ctrl-C (SIGINT to its process group) the database outlives the requests in flight: answered, exit 0', async () => {
    server = await ServerProcess.start(shellEnv, dataDir, { group: true });
    const postgres = postgresPid();
    const held = await HeldRequest.open(server.port, 'POST', '/v1/auth/device/start', '{}');
    server.signalGroup('SIGINT'); // the embedded PostgreSQL runs in a session of its own, so only the server hears it
    await eventually(() => server!.output.includes('SIGINT: shutting down'), { description: 'the server to handle SIGINT' });
    const response = await held.finish();

    expect(response.status).toBe(200);
    await server.expectExit(0);
    expect(isAlive(postgres)).toBe(false);
    expect(server.output).not.toMatch(/"level":(40|50)/);
  });

  it('on SIGINT cuts a request still in flight after SHUTDOWN_TIMEOUT_MS, logs it, and still exits 0', async () => {
    server = await ServerProcess.start({ ...shellEnv, SHUTDOWN_TIMEOUT_MS: '2000' }, dataDir);
    const postgres = postgresPid();
    const held = await HeldRequest.open(server.port, 'POST', '/v1/auth/device/start', '{}'); // its body never comes
    const signalled = Date.now();
    await server.signal('SIGINT');

    expect(await held.wasCut()).toBe(true);
    await server.expectExit(0);
    expect(Date.now() - signalled).toBeLessThan(15_000); // not REQUEST_TIMEOUT_MS (30 s)
    expect(server.output).toMatch(/cutting 1 connection\(s\) still busy after SHUTDOWN_TIMEOUT_MS \(2000 ms\)/);
    // Stopped, or finishing its shutdown checkpoint on its own if the disk made it slower than the bound.
    await eventually(() => !isAlive(postgres), { description: 'the embedded PostgreSQL to stop' });
  });

  it('on SIGTERM while booting (initialising the embedded cluster) finishes starting, then stops and exits 0', async () => {
    const freshDir = mkdtempSync(path.join(os.tmpdir(), 'svc-zero-config-boot-'));
    try {
      const booting = ServerProcess.spawn(shellEnv, freshDir);
      server = booting;
      await eventually(() => booting.output.includes('initialising embedded PostgreSQL'), { description: 'initdb to begin' });
      await booting.signal('SIGTERM');

      await booting.expectExit(0);
      const { output } = booting;
      expect(output.indexOf('SIGTERM: shutting down')).toBeLessThan(output.indexOf('serving the API'));
      expect(output).toContain('stopped cleanly');
      expect(readdirSync(path.join(freshDir, '.data/postgres'))).not.toContain('postmaster.pid');
    } finally {
      rmSync(freshDir, { recursive: true, force: true });
    }
  });

  it('exits at once with 128 + the signal on another signal during shutdown, and still stops the embedded PostgreSQL', async () => {
    server = await ServerProcess.start(shellEnv, dataDir);
    const postgres = postgresPid();
    const held = await HeldRequest.open(server.port, 'POST', '/v1/auth/device/start', '{}');
    await server.signal('SIGTERM'); // draining: waits for the held request
    server.child.kill('SIGINT');

    await server.expectExit(130);
    expect(await held.wasCut()).toBe(true);
    expect(server.output).toContain('SIGINT during shutdown: exiting at once with 130');
    await eventually(() => !isAlive(postgres), { description: 'the embedded PostgreSQL to stop' });
  });
});
