import { randomUUID } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { Readable } from 'node:stream';
import * as yauzl from 'yauzl';
import { CliError } from '../errors';

export interface UnpackLimits {
  /** Most entries an archive may hold. */
  maxEntries: number;
  /** Most bytes all files may inflate to, counted as they inflate (declared sizes can lie). */
  maxTotalBytes: number;
  /** Most bytes one file may inflate to. */
  maxEntryBytes: number;
}

export const DEFAULT_UNPACK_LIMITS: UnpackLimits = {
  maxEntries: 5_000,
  maxTotalBytes: 200 * 1024 * 1024,
  maxEntryBytes: 50 * 1024 * 1024,
};

const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
// "Version made by" hosts whose external attributes carry a unix mode: Unix, OS X.
const UNIX_HOSTS = new Set([3, 19]);

export class UnsafeArchiveError extends CliError {
  constructor(reason: string) {
    super(`Refusing to install: the archive is unsafe (${reason})`);
  }
}

interface PlannedEntry {
  entry: yauzl.Entry;
  relative: string;
  isDirectory: boolean;
  executable: boolean;
}

/**
 * Unpacks a zip into `destination` so that nothing lands outside it: no absolute
 * paths, no `..`, no symlinks or other special files, bounded entry count and
 * inflated size. Everything is written to a sibling staging directory first and
 * moved into place at the end, so a refused archive leaves no file behind and an
 * existing install is replaced whole.
 */
export async function unpackSafely(archive: Buffer, destination: string, limits = DEFAULT_UNPACK_LIMITS): Promise<string[]> {
  const zip = await openZip(archive);
  try {
    const plan = await planEntries(zip, limits);
    const target = path.resolve(destination);
    const parent = path.dirname(target);
    await mkdir(parent, { recursive: true });
    const staging = path.join(parent, `.svc-staging-${randomUUID()}`);
    await mkdir(staging, { mode: 0o755 });
    try {
      let total = 0;
      for (const item of plan) {
        const output = inside(staging, item.relative);
        if (item.isDirectory) {
          await mkdir(output, { recursive: true });
          continue;
        }
        await mkdir(path.dirname(output), { recursive: true });
        const data = await inflate(zip, item, limits.maxEntryBytes, limits.maxTotalBytes - total);
        total += data.length;
        // 'wx': never write through something already there.
        await writeFile(output, data, { flag: 'wx', mode: item.executable ? 0o755 : 0o644 });
      }
      await replaceDirectory(staging, target);
    } catch (error) {
      await rm(staging, { recursive: true, force: true });
      throw error;
    }
    return plan.filter((p) => !p.isDirectory).map((p) => p.relative);
  } finally {
    zip.close();
  }
}

function openZip(archive: Buffer): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) => {
    // Names are checked here, so they are decoded but not rejected by yauzl with its own wording.
    yauzl.fromBuffer(archive, { lazyEntries: true, validateEntrySizes: true, strictFileNames: false }, (error, zip) => {
      if (error || !zip) reject(new UnsafeArchiveError(`not a readable zip: ${error?.message ?? 'unknown error'}`));
      else resolve(zip);
    });
  });
}

async function planEntries(zip: yauzl.ZipFile, limits: UnpackLimits): Promise<PlannedEntry[]> {
  if (zip.entryCount > limits.maxEntries) {
    throw new UnsafeArchiveError(`${zip.entryCount} entries, more than the limit of ${limits.maxEntries}`);
  }
  const entries = await new Promise<yauzl.Entry[]>((resolve, reject) => {
    const all: yauzl.Entry[] = [];
    zip.on('entry', (entry: yauzl.Entry) => {
      all.push(entry);
      zip.readEntry();
    });
    zip.on('end', () => resolve(all));
    // yauzl itself refuses absolute and `..` names while listing; its message names the entry.
    zip.on('error', (error: Error) => reject(new UnsafeArchiveError(error.message)));
    zip.readEntry();
  });
  const seen = new Set<string>();
  let declared = 0;
  const plan: PlannedEntry[] = [];
  for (const entry of entries) {
    const relative = checkName(entry.fileName);
    const mode = UNIX_HOSTS.has(entry.versionMadeBy >> 8) ? (entry.externalFileAttributes >>> 16) & 0xffff : 0;
    const kind = mode & S_IFMT;
    const isDirectory = entry.fileName.endsWith('/') || kind === S_IFDIR;
    if (kind !== 0 && kind !== S_IFREG && kind !== S_IFDIR) {
      throw new UnsafeArchiveError(`"${entry.fileName}" is a ${kind === 0o120000 ? 'symbolic link' : 'special file'}`);
    }
    if (entry.generalPurposeBitFlag & 0x1) throw new UnsafeArchiveError(`"${entry.fileName}" is encrypted`);
    const key = relative.toLowerCase();
    if (seen.has(key)) throw new UnsafeArchiveError(`"${entry.fileName}" appears more than once`);
    seen.add(key);
    if (!isDirectory && entry.uncompressedSize > limits.maxEntryBytes) {
      throw new UnsafeArchiveError(`"${entry.fileName}" would inflate to more than ${limits.maxEntryBytes} bytes`);
    }
    declared += isDirectory ? 0 : entry.uncompressedSize;
    if (declared > limits.maxTotalBytes) {
      throw new UnsafeArchiveError(`the files would inflate to more than ${limits.maxTotalBytes} bytes`);
    }
    plan.push({ entry, relative, isDirectory, executable: !isDirectory && (mode & 0o111) !== 0 });
  }
  // A file and a directory of the same path, or a file under a file, is refused before anything is written.
  for (const item of plan) {
    const parts = item.relative.split('/');
    for (let i = 1; i < parts.length; i++) {
      const prefix = parts.slice(0, i).join('/').toLowerCase();
      const clash = plan.find((other) => !other.isDirectory && other.relative.toLowerCase() === prefix);
      if (clash) throw new UnsafeArchiveError(`"${item.relative}" is under the file "${clash.relative}"`);
    }
  }
  return plan;
}

/** A relative path of plain segments, or a refusal naming why. */
export function checkName(name: string): string {
  if (name.length === 0 || name.length > 1024) throw new UnsafeArchiveError('an entry has an empty or overlong name');
  if (/[\u0000-\u001f]/.test(name)) throw new UnsafeArchiveError(`an entry name holds control characters`);
  if (name.includes('\\')) throw new UnsafeArchiveError(`"${name}" uses backslashes`);
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name)) throw new UnsafeArchiveError(`"${name}" is an absolute path`);
  const segments = name.replace(/\/$/, '').split('/');
  if (segments.some((s) => s === '..')) throw new UnsafeArchiveError(`"${name}" leaves the install directory`);
  if (segments.some((s) => s === '' || s === '.')) throw new UnsafeArchiveError(`"${name}" has empty or "." segments`);
  return segments.join('/');
}

/** `relative` resolved under `root`, refusing anything that is not strictly inside it. */
function inside(root: string, relative: string): string {
  const resolved = path.resolve(root, relative);
  if (!resolved.startsWith(root + path.sep)) throw new UnsafeArchiveError(`"${relative}" leaves the install directory`);
  return resolved;
}

async function inflate(zip: yauzl.ZipFile, item: PlannedEntry, maxEntryBytes: number, remaining: number): Promise<Buffer> {
  const stream = await new Promise<Readable>((resolve, reject) =>
    zip.openReadStream(item.entry, (error, readable) =>
      error || !readable
        ? reject(new UnsafeArchiveError(`"${item.relative}" cannot be read: ${error?.message}`))
        : resolve(readable),
    ),
  );
  const limit = Math.min(maxEntryBytes, remaining);
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream) {
      size += (chunk as Buffer).length;
      // Counted as it inflates: a lying header cannot make us write more than the limit.
      if (size > limit) {
        stream.destroy();
        throw new UnsafeArchiveError(`"${item.relative}" inflates past the size limit`);
      }
      chunks.push(chunk as Buffer);
    }
  } catch (error) {
    if (error instanceof UnsafeArchiveError) throw error;
    throw new UnsafeArchiveError(`"${item.relative}" is corrupt: ${(error as Error).message}`);
  }
  return Buffer.concat(chunks);
}

/** Moves `staging` to `target`, replacing what was there only once the new tree is complete. */
async function replaceDirectory(staging: string, target: string): Promise<void> {
  const previous = `${target}.svc-old-${randomUUID()}`;
  let moved = false;
  try {
    await rename(target, previous);
    moved = true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  try {
    await rename(staging, target);
  } catch (error) {
    if (moved) await rename(previous, target);
    throw error;
  }
  if (moved) await rm(previous, { recursive: true, force: true });
}
