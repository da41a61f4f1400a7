import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { isAlive } from '../../src/platform/database/embedded-postgres';
import { eventually } from '../support/eventually';

const root = path.resolve(__dirname, '../..');
const main = path.join(root, 'dist/main.js');

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

describe('zero-configuration start', () => {
  let dataDir: string;
  let child: ChildProcess | undefined;
  let output = '';

  beforeAll(() => {
    // `npm test` builds first; a direct jest run may not have.
    if (!existsSync(main)) execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'svc-zero-config-'));
  });

  afterAll(() => {
    if (child?.pid && isAlive(child.pid)) child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('serves /health from the built server with an empty environment, then stops cleanly', async () => {
    const port = await freePort();
    // Nothing but what any shell has (and a free port): no DATABASE_URL, no REDIS_URL, no DATA_DIR.
    // The working directory is a fresh private (0700) directory, so the default ./.data lands there.
    child = spawn(process.execPath, [main], {
      cwd: dataDir,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (chunk) => (output += chunk));
    child.stderr!.on('data', (chunk) => (output += chunk));

    // Until it answers, or stops: a server that exited fails at once rather than at the deadline.
    const stopped = () => child!.exitCode !== null || child!.signalCode !== null;
    const response = await eventually(async () => stopped() || (await fetch(`http://127.0.0.1:${port}/health`)), {
      timeoutMs: 90_000,
      intervalMs: 250,
      description: 'the server to answer',
    }).catch((error: Error) => {
      throw new Error(`${error.message}\n${output}`, { cause: error });
    });
    if (response === true) throw new Error(`the server stopped before it answered:\n${output}`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true, version: expect.any(String), status: 'healthy' });
    expect(output).toContain('embedded PostgreSQL');
    expect(output).not.toMatch(/"level":50/); // nothing logged at error level

    const postgresPid = Number(readFileSync(path.join(dataDir, '.data/postgres/postmaster.pid'), 'utf8').split('\n')[0]);
    expect(isAlive(postgresPid)).toBe(true);

    const exited = new Promise<number | null>((resolve) => child!.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(isAlive(postgresPid)).toBe(false);
  });
});
