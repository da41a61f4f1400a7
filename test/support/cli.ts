import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
/** The shipped entry point; tests run the same compiled code through a per-process copy (see buildCli). */
export const CLI_BIN = path.join(ROOT, 'cli/bin/svc.js');
let built: string | undefined;

/** A digest of everything the CLI build reads, naming its output directory. */
function sourceDigest(): string {
  const hash = createHash('sha256');
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else hash.update(full).update(readFileSync(full));
    }
  };
  walk(path.join(ROOT, 'cli/src'));
  walk(path.join(ROOT, 'cli/generated'));
  hash.update(readFileSync(path.join(ROOT, 'cli/tsconfig.json')));
  return hash.digest('hex').slice(0, 16);
}

/**
 * Compiles the CLI into cli/dist/test-<digest of its sources>, once: a build goes to a private
 * directory renamed into place whole, so a jest worker never runs a CLI another is still writing.
 * Answers the entry point to run.
 */
export function buildCli(): string {
  if (built) return built;
  const outDir = path.join(ROOT, 'cli/dist', `test-${sourceDigest()}`);
  const entry = path.join(outDir, 'svc.js');
  if (!existsSync(entry)) {
    const staging = `${outDir}.${process.pid}.tmp`;
    rmSync(staging, { recursive: true, force: true });
    execFileSync(
      process.execPath,
      [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', path.join(ROOT, 'cli/tsconfig.json'), '--outDir', staging],
      { stdio: 'inherit' },
    );
    writeFileSync(path.join(staging, 'svc.js'), "require('./src/main.js').main(process.argv);\n");
    try {
      renameSync(staging, outDir);
    } catch {
      // Another worker finished the same build first: use its copy.
      rmSync(staging, { recursive: true, force: true });
    }
  }
  built = entry;
  return entry;
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON (for `--json` runs). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json(): any;
}

/** A user's machine: its own HOME and XDG config directory, and the API address. */
export class CliUser {
  private constructor(
    readonly entry: string,
    readonly home: string,
    readonly apiUrl: string,
    readonly env: Record<string, string> = {},
  ) {}

  static async create(apiUrl: string, env: Record<string, string> = {}): Promise<CliUser> {
    return new CliUser(buildCli(), await mkdtemp(path.join(tmpdir(), 'svc-cli-home-')), apiUrl, env);
  }

  get configDir(): string {
    return path.join(this.home, '.config');
  }

  environment(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
    const { SVC_TOKEN: _token, SVC_API_URL: _url, XDG_CONFIG_HOME: _xdg, ...inherited } = process.env;
    const env: NodeJS.ProcessEnv = {
      ...inherited,
      HOME: this.home,
      XDG_CONFIG_HOME: this.configDir,
      SVC_API_URL: this.apiUrl,
      NO_COLOR: '1',
      ...this.env,
    };
    for (const [key, value] of Object.entries(extra)) {
      if (value === undefined) delete env[key];
      else env[key] = value;
    }
    return env;
  }

  spawn(args: string[], options: { env?: Record<string, string | undefined>; cwd?: string } = {}): ChildProcess {
    return spawn(process.execPath, [this.entry, ...args], {
      env: this.environment(options.env),
      cwd: options.cwd ?? this.home,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  }

  run(args: string[], options: { env?: Record<string, string | undefined>; cwd?: string } = {}): Promise<CliResult> {
    return finished(this.spawn(args, options));
  }

  remove(): Promise<void> {
    return rm(this.home, { recursive: true, force: true });
  }
}

export function finished(child: ChildProcess): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk) => (stdout += chunk));
  child.stderr?.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) =>
      resolve({
        code,
        stdout,
        stderr,
        json() {
          try {
            return JSON.parse(stdout);
          } catch {
            throw new Error(`stdout is not JSON (exit ${code}):\n${stdout}\nstderr:\n${stderr}`);
          }
        },
      }),
    );
  });
}
