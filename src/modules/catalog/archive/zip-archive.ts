import type { Readable } from 'node:stream';
import { crc32 } from 'node:zlib';
import * as yauzl from 'yauzl';
import { DomainError } from '../../../platform/errors/domain-error';
import { escapeControlChars } from './control-chars';

export interface ZipEntryInfo {
  name: string;
  compressedSize: number;
  uncompressedSize: number;
  isDirectory: boolean;
  isSymlink: boolean;
  isEncrypted: boolean;
  unixMode: number | null;
}

export interface ZipOpenOptions {
  /** Stop listing after this many entries, so a huge central directory can't exhaust memory. */
  maxEntries?: number;
}

export interface ZipEntryDigest {
  /** The first `keepBytes` bytes of the inflated entry. */
  head: Buffer;
  /** How many bytes the entry inflated to (checked against its declared size and CRC). */
  size: number;
}

/**
 * The most entries a release archive may have. The upload reader and the
 * scanner both use it, so the scanner never fails an accepted archive for its count.
 */
export const MAX_ARCHIVE_ENTRIES = 5_000;

// "Version made by" host systems whose external attributes carry a unix mode: Unix, OS X.
const UNIX_HOSTS = new Set([3, 19]);
const S_IFMT = 0o170000;
const S_IFDIR = 0o040000;
const S_IFLNK = 0o120000;
const MSDOS_DIRECTORY = 0x10;
const INFO_ZIP_UNICODE_PATH = 0x7075;

/**
 * A read-only view of a zip file that never touches the disk beyond the archive
 * itself, never trusts declared sizes, and leaves name checking to the caller.
 */
export class ZipArchive {
  private closed = false;

  private constructor(
    private readonly zip: yauzl.ZipFile,
    private readonly raw: Map<ZipEntryInfo, yauzl.Entry>,
    readonly entries: ZipEntryInfo[],
    /** The entry count the archive declares; more than `entries.length` when listing stopped at the limit. */
    readonly entryCount: number,
    /** The archive's size in bytes. */
    readonly fileSize: number,
  ) {}

  /** True when the archive declares more entries than were listed. */
  get truncated(): boolean {
    return this.entryCount > this.entries.length;
  }

  static async open(path: string, options: ZipOpenOptions = {}): Promise<ZipArchive> {
    const maxEntries = options.maxEntries ?? MAX_ARCHIVE_ENTRIES;
    let zip: yauzl.ZipFile;
    try {
      // strictFileNames off and decodeStrings off: yauzl would reject bad names, but we must see and report them.
      zip = await yauzl.openPromise(path, {
        lazyEntries: true,
        autoClose: false,
        decodeStrings: false,
        validateEntrySizes: true,
        strictFileNames: false,
      });
    } catch (error) {
      throw asInvalidZip(error);
    }
    try {
      const listed = await listEntries(zip, maxEntries);
      const raw = new Map<ZipEntryInfo, yauzl.Entry>();
      const entries = listed.map((entry) => {
        const info = describe(entry);
        raw.set(info, entry);
        return info;
      });
      return new ZipArchive(zip, raw, entries, zip.entryCount, zip.fileSize);
    } catch (error) {
      zip.close();
      throw asInvalidZip(error);
    }
  }

  /** The first entry with exactly this name. */
  find(name: string): ZipEntryInfo | undefined {
    return this.entries.find((entry) => entry.name === name);
  }

  /** Inflates a whole entry into memory, failing once more than `maxBytes` come out. */
  async read(nameOrEntry: string | ZipEntryInfo, maxBytes: number): Promise<Buffer> {
    const info = this.resolve(nameOrEntry);
    const chunks: Buffer[] = [];
    await this.pump(info, maxBytes, (chunk) => chunks.push(chunk));
    return Buffer.concat(chunks);
  }

  /**
   * Inflates a whole entry to verify its size and CRC, keeping only its first
   * `keepBytes` bytes. Output is capped at the declared size.
   */
  async inspect(entry: ZipEntryInfo, keepBytes: number): Promise<ZipEntryDigest> {
    const info = this.resolve(entry);
    const chunks: Buffer[] = [];
    let kept = 0;
    const size = await this.pump(info, info.uncompressedSize, (chunk) => {
      if (kept >= keepBytes) return;
      const part = chunk.length > keepBytes - kept ? chunk.subarray(0, keepBytes - kept) : chunk;
      chunks.push(part);
      kept += part.length;
    });
    return { head: Buffer.concat(chunks), size };
  }

  /**
   * Entries whose data would overlap another entry's local header or data: the
   * trick behind non-recursive zip bombs. A local header is 30 bytes plus the
   * name (which must match the central one) and an extra field we don't count.
   */
  overlappingEntries(): ZipEntryInfo[] {
    const spans = [...this.raw.entries()]
      .map(([info, entry]) => ({
        info,
        start: entry.relativeOffsetOfLocalHeader,
        end: entry.relativeOffsetOfLocalHeader + 30 + entry.fileNameLength + entry.compressedSize,
      }))
      .sort((a, b) => a.start - b.start);
    const overlapping = new Set<ZipEntryInfo>();
    let furthest: (typeof spans)[number] | null = null;
    for (const span of spans) {
      if (furthest && span.start < furthest.end) {
        overlapping.add(span.info);
        overlapping.add(furthest.info);
      }
      if (!furthest || span.end > furthest.end) furthest = span;
    }
    return this.entries.filter((entry) => overlapping.has(entry));
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.zip.close();
  }

  private resolve(nameOrEntry: string | ZipEntryInfo): ZipEntryInfo {
    const info = typeof nameOrEntry === 'string' ? this.find(nameOrEntry) : nameOrEntry;
    if (!info || !this.raw.has(info)) throw new Error(`The archive has no entry ${quoteName(String(info?.name ?? nameOrEntry))}`);
    return info;
  }

  /** Streams an entry through `onChunk`, verifying its local header, size and CRC; returns the byte count. */
  private async pump(info: ZipEntryInfo, maxBytes: number, onChunk: (chunk: Buffer) => void): Promise<number> {
    if (this.closed) throw new Error('The archive is closed');
    const entry = this.raw.get(info)!;
    if (entry.isEncrypted()) throw corrupt(info, 'it is encrypted');
    if (info.isDirectory) return 0;
    if (info.uncompressedSize > maxBytes) throw tooLarge(info, maxBytes);

    let stream: Readable;
    try {
      // Tools that stream-extract trust the local header, so it must name the same file as the central directory.
      const local = await this.zip.readLocalFileHeaderPromise(entry);
      if (!Buffer.from(local.fileName).equals(entry.fileNameRaw)) throw new Error('its local header names a different file');
      stream = await this.zip.openReadStreamPromise(entry);
    } catch (error) {
      throw corrupt(info, messageOf(error));
    }

    const { size, crc } = await new Promise<{ size: number; crc: number }>((resolve, reject) => {
      let size = 0;
      let crc = 0;
      let settled = false;
      const fail = (error: Error) => {
        if (settled) return;
        settled = true;
        stream.destroy();
        reject(error);
      };
      stream.on('data', (chunk: Buffer) => {
        if (settled) return;
        size += chunk.length;
        if (size > maxBytes) return fail(tooLarge(info, maxBytes));
        crc = crc32(chunk, crc);
        try {
          onChunk(chunk);
        } catch (error) {
          fail(new Error(messageOf(error)));
        }
      });
      // Listener stays attached even after settling: a late error must not become an uncaught one.
      stream.on('error', (error: Error) => fail(corrupt(info, messageOf(error))));
      stream.on('end', () => {
        if (settled) return;
        settled = true;
        resolve({ size, crc });
      });
    });

    if (size !== entry.uncompressedSize)
      throw corrupt(info, `it inflated to ${size} bytes but declares ${entry.uncompressedSize}`);
    if (crc >>> 0 !== entry.crc32 >>> 0) throw corrupt(info, 'its CRC-32 does not match its contents');
    return size;
  }
}

/** Why an entry name would escape or confuse an extraction directory, or null when it is safe. */
export function unsafePathReason(name: string): string | null {
  if (name.length === 0) return 'the name is empty';
  if (name.includes('\0')) return 'the name contains a NUL byte';
  if (/[\x01-\x1f\x7f]/.test(name)) return 'the name contains control characters';
  if (name.startsWith('/') || name.startsWith('\\')) return 'the path is absolute';
  if (/^[A-Za-z]:/.test(name)) return 'the path starts with a drive letter';
  if (name.split(/[\\/]/).includes('..')) return 'the path contains a ".." segment';
  return null;
}

/**
 * An entry name as it may leave the archive code (in findings, reports and
 * messages): control characters become `\xHH` escapes. Names are untrusted.
 */
export function displayName(name: string): string {
  return escapeControlChars(name);
}

/** An entry name quoted for messages, with control characters escaped as in `displayName`. */
export function quoteName(name: string): string {
  const quoted = `"${displayName(name)}"`;
  return quoted.length > 200 ? `${quoted.slice(0, 199)}…"` : quoted;
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

function listEntries(zip: yauzl.ZipFile, maxEntries: number): Promise<yauzl.Entry[]> {
  return new Promise((resolve, reject) => {
    const entries: yauzl.Entry[] = [];
    let settled = false;
    zip.on('entry', (entry: yauzl.Entry) => {
      if (settled) return;
      entries.push(entry);
      if (entries.length >= maxEntries) {
        settled = true;
        resolve(entries);
      } else {
        zip.readEntry();
      }
    });
    zip.on('end', () => {
      if (settled) return;
      settled = true;
      resolve(entries);
    });
    zip.on('error', (error: Error) => {
      if (settled) return;
      settled = true;
      reject(error);
    });
    if (zip.entryCount === 0 || maxEntries <= 0) {
      settled = true;
      resolve(entries);
    } else {
      zip.readEntry();
    }
  });
}

function describe(entry: yauzl.Entry): ZipEntryInfo {
  const name = decodeName(entry);
  const host = entry.versionMadeBy >>> 8;
  const mode = UNIX_HOSTS.has(host) ? (entry.externalFileAttributes >>> 16) & 0xffff : 0;
  const unixMode = mode === 0 ? null : mode;
  const fileType = (unixMode ?? 0) & S_IFMT;
  return {
    name,
    compressedSize: entry.compressedSize,
    uncompressedSize: entry.uncompressedSize,
    isDirectory:
      name.endsWith('/') ||
      name.endsWith('\\') ||
      fileType === S_IFDIR ||
      (unixMode === null && (entry.externalFileAttributes & MSDOS_DIRECTORY) !== 0),
    isSymlink: fileType === S_IFLNK,
    isEncrypted: entry.isEncrypted(),
    unixMode,
  };
}

const utf8 = new TextDecoder('utf-8');

function decodeName(entry: yauzl.Entry): string {
  const isUtf8 = (entry.generalPurposeBitFlag & 0x800) !== 0;
  const primary = isUtf8 ? utf8.decode(entry.fileNameRaw) : entry.fileNameRaw.toString('latin1');
  const unicode = unicodePathField(entry);
  if (unicode === null || unicode === primary) return primary;
  // Extractors disagree on which name wins; report whichever one is unsafe.
  return unsafePathReason(primary) !== null && unsafePathReason(unicode) === null ? primary : unicode;
}

/** The Info-ZIP Unicode Path extra field, when present and matching the header name's CRC. */
function unicodePathField(entry: yauzl.Entry): string | null {
  for (const field of entry.extraFields ?? []) {
    if (field.id !== INFO_ZIP_UNICODE_PATH || field.data.length < 6 || field.data.readUInt8(0) !== 1) continue;
    if (field.data.readUInt32LE(1) !== crc32(entry.fileNameRaw) >>> 0) continue;
    return utf8.decode(field.data.subarray(5));
  }
  return null;
}

function asInvalidZip(error: unknown): Error {
  if (error instanceof DomainError) return error;
  // File-system failures (ENOENT, EACCES…) are ours, not the vendor's.
  // (No instanceof Error: errors from Node core may come from another realm, e.g. under jest.)
  if (typeof error === 'object' && error !== null && typeof (error as NodeJS.ErrnoException).code === 'string')
    return error as Error;
  return new DomainError('invalid', `The archive is not a valid zip file: ${messageOf(error)}`);
}

function corrupt(info: ZipEntryInfo, reason: string): DomainError {
  return new DomainError('invalid', `The archive entry ${quoteName(info.name)} is corrupt: ${reason}`);
}

function tooLarge(info: ZipEntryInfo, maxBytes: number): DomainError {
  return new DomainError('invalid', `The archive entry ${quoteName(info.name)} is larger than ${formatBytes(maxBytes)}`);
}

export function messageOf(error: unknown): string {
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? message : String(error);
}
