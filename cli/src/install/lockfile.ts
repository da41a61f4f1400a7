import { readFile, rename, writeFile } from 'node:fs/promises';
import * as path from 'node:path';

export const LOCK_FILE = 'svc-lock.json';

export interface LockedPackage {
  vendor: string;
  slug: string;
  version: string;
  sha256: string;
  releaseId: string;
  target: string;
  /** Relative to the project directory. */
  path: string;
  signed: boolean;
  signingKeyFingerprint: string | null;
  installedAt: string;
}

export interface LockFile {
  lockfileVersion: 1;
  packages: Record<string, LockedPackage>;
}

export const lockKey = (vendor: string, slug: string) => `${vendor}/${slug}`;

export async function readLock(dir: string): Promise<LockFile> {
  try {
    const parsed = JSON.parse(await readFile(path.join(dir, LOCK_FILE), 'utf8')) as LockFile;
    return { lockfileVersion: 1, packages: parsed.packages ?? {} };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { lockfileVersion: 1, packages: {} };
    throw error;
  }
}

/** Written whole to a temporary name, then renamed: a crash never leaves half a lock file. */
export async function writeLock(dir: string, lock: LockFile): Promise<void> {
  const file = path.join(dir, LOCK_FILE);
  const sorted = Object.fromEntries(Object.entries(lock.packages).sort(([a], [b]) => a.localeCompare(b)));
  await writeFile(`${file}.tmp`, JSON.stringify({ lockfileVersion: 1, packages: sorted }, null, 2) + '\n');
  await rename(`${file}.tmp`, file);
}
