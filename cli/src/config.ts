import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import * as path from 'node:path';

export const DEFAULT_API_URL = 'http://localhost:3000';

export function apiUrl(): string {
  return (process.env.SVC_API_URL || DEFAULT_API_URL).replace(/\/+$/, '');
}

export function configDir(): string {
  const base = process.env.XDG_CONFIG_HOME || path.join(homedir(), '.config');
  return path.join(base, 'svc');
}

export const credentialsPath = () => path.join(configDir(), 'credentials.json');

export interface StoredCredentials {
  token: string;
  apiUrl: string;
  savedAt: string;
}

export type TokenSource = 'SVC_TOKEN' | 'credentials file';

/** The token to send: `SVC_TOKEN` wins over the credentials file (spec, Authentication item 7). */
export async function currentToken(): Promise<{ token: string; source: TokenSource } | null> {
  const fromEnv = process.env.SVC_TOKEN?.trim();
  if (fromEnv) return { token: fromEnv, source: 'SVC_TOKEN' };
  const stored = await readCredentials();
  // A token is sent only to the server that issued it, never to whatever SVC_API_URL now names.
  if (!stored || (stored.apiUrl && stored.apiUrl.replace(/\/+$/, '') !== apiUrl())) return null;
  return { token: stored.token, source: 'credentials file' };
}

export async function readCredentials(): Promise<StoredCredentials | null> {
  let text: string;
  try {
    text = await readFile(credentialsPath(), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  try {
    const parsed = JSON.parse(text) as Partial<StoredCredentials>;
    return typeof parsed.token === 'string' && parsed.token ? (parsed as StoredCredentials) : null;
  } catch {
    return null;
  }
}

/** Written with mode 0600 from the start (and re-set, in case the file existed with wider rights). */
export async function saveCredentials(credentials: StoredCredentials): Promise<void> {
  await mkdir(configDir(), { recursive: true, mode: 0o700 });
  const file = credentialsPath();
  await writeFile(file, JSON.stringify(credentials, null, 2) + '\n', { mode: 0o600 });
  await chmod(file, 0o600);
}

export async function deleteCredentials(): Promise<void> {
  await rm(credentialsPath(), { force: true });
}
