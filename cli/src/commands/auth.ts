import { spawn } from 'node:child_process';
import { Command } from 'commander';
import { Api, notSignedIn } from '../api';
import { apiUrl, credentialsPath, currentToken, deleteCredentials, readCredentials, saveCredentials } from '../config';
import { CliError } from '../errors';
import { colors, emit, keyValues, note, OutputOptions } from '../output';
import { clientName } from '../version';

interface DeviceStart {
  deviceCode: string;
  userCode: string;
  verificationUri: string;
  expiresIn: number;
  interval: number;
}
type DevicePoll =
  | { status: 'authorization_pending' | 'expired' | 'denied' }
  | { status: 'approved'; token: string; tokenType: string; expiresIn: number | null };

interface User {
  id: string;
  email: string;
  name: string | null;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function authCommands(program: Command): void {
  program
    .command('login')
    .description('sign in with the device flow and store the token')
    .option('--no-browser', 'do not try to open the verification page')
    .option('--json', 'machine output on stdout')
    .action(async (options: OutputOptions & { browser: boolean }) => {
      const api = new Api();
      // Named, so the device page can tell the person approving which client on which machine asks.
      const start = await api.post<DeviceStart>('/v1/auth/device/start', { clientName: clientName() });
      note(`To sign in, open ${colors.cyan(start.verificationUri)} and enter the code ${colors.bold(start.userCode)}`);
      note(`code: ${start.userCode}`);
      if (options.browser && process.stderr.isTTY) openBrowser(start.verificationUri);
      note('Waiting for approval...');
      const token = await pollForToken(api, start);
      await saveCredentials({ token, apiUrl: api.baseUrl, savedAt: new Date().toISOString() });
      const { user } = await api.get<{ user: User }>('/v1/users/me', { auth: true });
      if (process.env.SVC_TOKEN) note('Note: SVC_TOKEN is set and is used before the stored token.');
      emit(
        options,
        { ok: true, user, credentialsPath: credentialsPath() },
        () => `Signed in as ${colors.bold(user.email)}; the token is stored in ${credentialsPath()}`,
      );
    });

  program
    .command('logout')
    .description('revoke the stored token and delete it')
    .option('--json', 'machine output on stdout')
    .action(async (options: OutputOptions) => {
      const stored = await readCredentials();
      let revoked = false;
      if (stored) {
        // The stored token is revoked even when SVC_TOKEN is set: logout is about the file.
        const answer = await fetch(new Api(stored.apiUrl || apiUrl()).url('/v1/auth/token/revoke'), {
          method: 'POST',
          headers: { authorization: `Bearer ${stored.token}` },
        }).catch(() => null);
        revoked = answer?.ok ?? false;
        if (answer && !answer.ok && answer.status !== 401) {
          throw new CliError(
            `The server refused to revoke the token (HTTP ${answer.status}); it is kept in ${credentialsPath()}`,
          );
        }
        if (!answer) throw new CliError(`Cannot reach ${stored.apiUrl} to revoke the token; it is kept in ${credentialsPath()}`);
        await deleteCredentials();
      }
      emit(options, { ok: true, revoked, deleted: stored !== null }, () =>
        stored ? 'Signed out: the token is revoked and deleted.' : 'Not signed in: nothing to do.',
      );
      if (process.env.SVC_TOKEN) note('Note: SVC_TOKEN is still set in the environment and is not revoked by logout.');
    });

  program
    .command('whoami')
    .description('the signed-in user')
    .option('--json', 'machine output on stdout')
    .action(async (options: OutputOptions) => {
      const token = await currentToken();
      if (!token) throw notSignedIn();
      const { user } = await new Api().get<{ user: User }>('/v1/users/me', { auth: true });
      emit(options, { user, tokenSource: token.source }, () =>
        keyValues([
          ['email', user.email],
          ['name', user.name],
          ['id', user.id],
          ['token from', token.source],
        ]),
      );
    });
}

/** RFC 8628 polling: wait `interval`, add 5 s on every slow_down, stop on expiry or denial. */
async function pollForToken(api: Api, start: DeviceStart): Promise<string> {
  let intervalMs = Math.max(1, start.interval) * 1000;
  const deadline = Date.now() + start.expiresIn * 1000;
  while (Date.now() < deadline) {
    await sleep(intervalMs);
    const answer = await api.request<DevicePoll & { message?: string }>('POST', '/v1/auth/device/poll', {
      body: { deviceCode: start.deviceCode },
      accept: [429],
    });
    if (answer.status === 429) {
      intervalMs += 5000;
      continue;
    }
    const poll = answer.body;
    if (poll.status === 'approved') return poll.token;
    if (poll.status === 'expired') break;
    if (poll.status === 'denied')
      throw new CliError('The sign-in was denied in the browser: nothing was stored. Run `svc login` again to retry');
  }
  throw new CliError('The code expired before it was approved: run `svc login` again');
}

/** Best effort: a missing opener or a headless machine is not an error. */
function openBrowser(url: string): void {
  const command = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  try {
    const child = spawn(command, [url], { stdio: 'ignore', detached: true });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // no opener: the printed address is enough
  }
}
