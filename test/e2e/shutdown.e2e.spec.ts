import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createTestDatabase, TestDatabase } from '../support/database';
import { eventually } from '../support/eventually';
import { ensureBuilt, HeldRequest, ROOT, ServerProcess } from '../support/server-process';

/** The built server on an external PostgreSQL (DATABASE_URL), stopped by a signal as an orchestrator would. */
describe('shutdown with DATABASE_URL', () => {
  let db: TestDatabase;
  let dataDir: string;
  let server: ServerProcess | undefined;
  let env: Record<string, string | undefined>;

  beforeAll(async () => {
    ensureBuilt();
    db = await createTestDatabase();
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'svc-shutdown-'));
    env = { PATH: process.env.PATH, HOME: process.env.HOME, DATABASE_URL: db.url, QUEUE_PREFIX: `svc-shutdown-${process.pid}` };
  });

  afterEach(() => server?.kill());

  afterAll(async () => {
    rmSync(dataDir, { recursive: true, force: true });
    await db.drop();
  });

  it('on SIGTERM answers the request in flight, refuses new connections, and exits 0 (queues on Redis when it answers)', async () => {
    server = await ServerProcess.start({ ...env, REDIS_URL: process.env.SVC_TEST_REDIS_URL }, dataDir);
    const held = await HeldRequest.open(server.port, 'POST', '/v1/auth/device/start', '{}');
    await server.signal('SIGTERM');
    await eventually(() => server!.refusesConnections(), { description: 'the server to stop listening' });
    const response = await held.finish();

    expect(response.status).toBe(200);
    expect(JSON.parse(response.body)).toMatchObject({ deviceCode: expect.any(String) });
    await server.expectExit(0);
    expect(server.output).toContain('stopped cleanly');
    expect(server.output).not.toMatch(/"level":(40|50)/);
  });

  it('on SIGINT exits 0 (queues on PostgreSQL)', async () => {
    server = await ServerProcess.start(env, dataDir);
    await server.signal('SIGINT');
    await server.expectExit(0);
    expect(server.output).toContain('stopped cleanly');
    expect(server.output).not.toMatch(/"level":(40|50)/);
  });

  describe('under npm start', () => {
    const npm = { npm: true };
    const npmEnv = () => ({ ...env, DATA_DIR: dataDir });

    it('SIGTERM to npm alone, as a supervisor sends it, reaches the server: it stops cleanly and npm exits 0', async () => {
      server = await ServerProcess.start(npmEnv(), ROOT, npm);
      await server.signal('SIGTERM');
      await server.expectExit(0);
      expect(server.output).toContain('stopped cleanly');
    });

    it('Ctrl-C (SIGINT to the whole process group) stops the server once, cleanly, and npm exits 0', async () => {
      server = await ServerProcess.start(npmEnv(), ROOT, npm);
      // The server gets it twice, from the terminal and forwarded by npm: the echo must not force the exit.
      server.signalGroup('SIGINT');
      await server.expectExit(0);
      expect(server.output.match(/SIGINT: shutting down/g)).toHaveLength(1);
      expect(server.output).not.toContain('exiting at once');
      expect(server.output).toContain('stopped cleanly');
    });
  });
});
