import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { connect, Socket } from 'node:net';
import * as path from 'node:path';
import { eventually } from './eventually';

export const ROOT = path.resolve(__dirname, '../..');
export const MAIN = path.join(ROOT, 'dist/main.js');

/** `npm test` builds first; a direct jest run may not have. */
export function ensureBuilt(): void {
  if (!existsSync(MAIN)) execFileSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: 'inherit' });
}

type Env = Record<string, string | undefined>;
type SpawnOptions = { npm?: boolean; group?: boolean };

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

const LISTENING = /Server listening at http:\/\/127\.0\.0\.1:(\d+)/;

/** The built server (`node dist/main.js`) as a child process, as `npm start` runs it. */
export class ServerProcess {
  output = '';
  readonly exited: Promise<Exit>;

  private constructor(
    readonly child: ChildProcess,
    private readonly ownGroup: boolean,
  ) {
    child.stdout!.on('data', (chunk) => (this.output += chunk));
    child.stderr!.on('data', (chunk) => (this.output += chunk));
    this.exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  }

  /**
   * Starts it with exactly this environment, without waiting for it. It listens on a port of its own
   * choosing (PORT=0), read from its log: a port picked here could be taken meanwhile, by the embedded
   * PostgreSQL for one. `npm: true` runs it through `npm start`; with it or `group: true` it runs in a
   * process group of its own, as a terminal runs a command (see `signalGroup`).
   */
  static spawn(env: Env, cwd: string, options: SpawnOptions = {}): ServerProcess {
    const [command, args] = options.npm ? ['npm', ['start', '--ignore-scripts']] : [process.execPath, [MAIN]];
    const child = spawn(command, args, {
      cwd,
      env: { ...env, PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: options.npm || options.group,
    });
    return new ServerProcess(child, Boolean(options.npm || options.group));
  }

  /** Starts it with exactly this environment and waits until /health answers; kills it if it does not. */
  static async start(env: Env, cwd: string, options: SpawnOptions = {}): Promise<ServerProcess> {
    const server = ServerProcess.spawn(env, cwd, options);
    try {
      // Until it answers, or stops: a server that exited fails at once rather than at the deadline.
      const response = await eventually(
        async () => server.hasExited() || (server.listening() && (await fetch(`${server.url}/health`))),
        { timeoutMs: 90_000, intervalMs: 250, description: 'the server to answer' },
      ).catch((error: Error) => {
        throw new Error(`${error.message}\n${server.output}`, { cause: error });
      });
      if (response === true) throw new Error(`the server stopped before it answered:\n${server.output}`);
      if (response.status !== 200) throw new Error(`/health answered ${response.status}:\n${server.output}`);
      return server;
    } catch (error) {
      server.kill();
      throw error;
    }
  }

  private listening(): boolean {
    return LISTENING.test(this.output);
  }

  get port(): number {
    const match = LISTENING.exec(this.output);
    if (!match) throw new Error('the server is not listening yet');
    return Number(match[1]);
  }

  /** Waits for the exit and checks its code, showing the end of the server's log when it is not the one expected. */
  async expectExit(code: number): Promise<void> {
    const exit = await this.exited;
    if (exit.code !== code || exit.signal !== null) {
      const tail = this.output.trimEnd().split('\n').slice(-25).join('\n');
      throw new Error(`expected exit code ${code}, got ${JSON.stringify(exit)}; the server's log ends:\n${tail}`);
    }
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  hasExited(): boolean {
    return this.child.exitCode !== null || this.child.signalCode !== null;
  }

  /** Sends the signal and waits until the server says it is shutting down, so it has been handled. */
  async signal(signal: NodeJS.Signals): Promise<void> {
    const before = this.output.split(`${signal}: shutting down`).length;
    this.child.kill(signal);
    await eventually(() => this.output.split(`${signal}: shutting down`).length > before, {
      description: `the server to handle ${signal}`,
    });
  }

  /** Sends the signal to the whole process group, as a terminal does on Ctrl-C (needs `npm` or `group`). */
  signalGroup(signal: NodeJS.Signals): void {
    process.kill(-this.child.pid!, signal);
  }

  /** Whether the port refuses new connections. */
  async refusesConnections(): Promise<boolean> {
    return fetch(`${this.url}/health`).then(
      () => false,
      (error: Error & { cause?: { code?: string } }) => error.cause?.code === 'ECONNREFUSED',
    );
  }

  /** Kills what is left: its whole group when it has one, since npm may be gone while the server is not. */
  kill(): void {
    try {
      if (this.ownGroup) process.kill(-this.child.pid!, 'SIGKILL');
      else if (!this.hasExited()) this.child.kill('SIGKILL');
    } catch {
      // nothing left
    }
  }
}

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * A request the server has begun but cannot finish yet: its headers announce a body with
 * `Expect: 100-continue`, and the body is held back. The server's `100 Continue` proves the
 * request is in flight, which a test needs before it signals the server.
 */
export class HeldRequest {
  private received = '';
  private readonly closed: Promise<void>;

  private constructor(
    private readonly socket: Socket,
    private readonly body: string,
  ) {
    socket.on('data', (chunk) => (this.received += chunk));
    this.closed = new Promise((resolve) => socket.once('close', () => resolve()));
  }

  static async open(port: number, method: string, path: string, body: string): Promise<HeldRequest> {
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => undefined); // a cut connection shows as a response that never came
    const held = new HeldRequest(socket, body);
    socket.write(
      `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nExpect: 100-continue\r\n\r\n`,
    );
    await eventually(() => held.received.startsWith('HTTP/1.1 100 Continue\r\n\r\n'), {
      description: 'the server to accept the request headers (100 Continue)',
    });
    return held;
  }

  /** Sends the body and reads the answer until the server closes the connection. */
  async finish(): Promise<RawResponse> {
    this.socket.write(this.body);
    return this.response();
  }

  /** What arrived by the time the server closed the connection; undefined if there was no final answer. */
  async response(): Promise<RawResponse> {
    await this.closed;
    const final = this.received.replace(/^HTTP\/1\.1 100 Continue\r\n\r\n/, '');
    const match = /^HTTP\/1\.1 (\d{3}) [^\r\n]*\r\n([\s\S]*?)\r\n\r\n([\s\S]*)$/.exec(final);
    if (!match) throw new Error(`no complete response; received: ${JSON.stringify(this.received)}`);
    const headers = Object.fromEntries(
      match[2].split('\r\n').map((line) => {
        const colon = line.indexOf(':');
        return [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()];
      }),
    );
    return { status: Number(match[1]), headers, body: match[3] };
  }

  /** True when the server closed the connection without answering. */
  async wasCut(): Promise<boolean> {
    await this.closed;
    return this.received.replace(/^HTTP\/1\.1 100 Continue\r\n\r\n/, '') === '';
  }
}
