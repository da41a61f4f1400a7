import { DomainError } from '../../../platform/errors/domain-error';
import { withoutControlCharacters } from '../../../platform/text/text-rules';
import { PackageManifest, parseManifest } from './package-manifest';
import { formatBytes, MAX_ARCHIVE_ENTRIES, messageOf, ZipArchive, ZipEntryInfo } from './zip-archive';

export const MANIFEST_NAME = 'manifest.json';
export const MANIFEST_MAX_BYTES = 64 * 1024;
/** Tried in order; the exact-case name wins when both exist. */
export const README_NAMES = ['README.md', 'readme.md'] as const;
export const README_MAX_BYTES = 512 * 1024;

export interface PackageContents {
  manifest: PackageManifest;
  readmeMd: string | null;
  entries: ZipEntryInfo[];
}

/**
 * Reads what the upload endpoint needs from a release archive: the validated
 * manifest and the README. Safety checks on the rest are the scanner's job.
 */
export async function readPackage(path: string, options: { maxEntries?: number } = {}): Promise<PackageContents> {
  const maxEntries = options.maxEntries ?? MAX_ARCHIVE_ENTRIES;
  const archive = await ZipArchive.open(path, { maxEntries });
  try {
    if (archive.truncated) throw new DomainError('invalid', `The archive has more than ${maxEntries} entries`);
    const manifest = await readManifestFrom(archive);
    const readmeMd = await readReadmeFrom(archive);
    return { manifest, readmeMd, entries: archive.entries };
  } finally {
    archive.close();
  }
}

/**
 * The root `manifest.json`, parsed and validated; throws 400 when unreadable and
 * 422 with `problems` when invalid, including when any string in it holds NUL or
 * another control character (tab and line breaks aside).
 */
export async function readManifestFrom(archive: ZipArchive): Promise<PackageManifest> {
  const candidates = archive.entries.filter((entry) => entry.name === MANIFEST_NAME && !entry.isDirectory);
  if (candidates.length === 0) throw new DomainError('invalid', `The archive has no ${MANIFEST_NAME} at its root`);
  // Two manifests would let different readers see different packages.
  if (candidates.length > 1) throw new DomainError('invalid', `The archive has more than one ${MANIFEST_NAME} at its root`);
  const entry = candidates[0];
  if (entry.isSymlink) throw new DomainError('invalid', `${MANIFEST_NAME} must be a regular file, not a symbolic link`);

  const bytes = await archive.read(entry, MANIFEST_MAX_BYTES);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new DomainError('invalid', `${MANIFEST_NAME} is not valid UTF-8`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new DomainError('invalid', `${MANIFEST_NAME} is not valid JSON: ${messageOf(error)}`);
  }
  const parsed = parseManifest(raw);
  if ('problems' in parsed) throw new DomainError('unprocessable', parsed.problems.join('; '), { problems: parsed.problems });
  return parsed.manifest;
}

/**
 * The root README as UTF-8 text, or null when there is none; throws 400 when it is too large or holds NUL
 * bytes. Other control characters (ANSI escapes, BEL, C1) are taken out rather than refused: a README is
 * free text that editors and generators leave such bytes in, and the listing never stores them.
 */
export async function readReadmeFrom(archive: ZipArchive): Promise<string | null> {
  for (const name of README_NAMES) {
    const entry = archive.entries.find((candidate) => candidate.name === name && !candidate.isDirectory && !candidate.isSymlink);
    if (!entry) continue;
    if (entry.uncompressedSize > README_MAX_BYTES) {
      throw new DomainError('invalid', `${name} is larger than ${formatBytes(README_MAX_BYTES)}`);
    }
    const bytes = await archive.read(entry, README_MAX_BYTES);
    // NUL can't be stored as text (PostgreSQL refuses it), and marks a binary or UTF-16 file anyway.
    if (bytes.includes(0)) throw new DomainError('invalid', `${name} is not text`);
    // TextDecoder drops a leading BOM.
    return withoutControlCharacters(new TextDecoder('utf-8').decode(bytes));
  }
  return null;
}
