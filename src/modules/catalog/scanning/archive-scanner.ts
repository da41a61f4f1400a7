import { DomainError } from '../../../platform/errors/domain-error';
import type { PackageManifest } from '../archive/package-manifest';
import { readManifestFrom, readReadmeFrom } from '../archive/read-package';
import { escapeControlChars } from '../archive/control-chars';
import {
  displayName,
  formatBytes,
  MAX_ARCHIVE_ENTRIES,
  messageOf,
  quoteName,
  unsafePathReason,
  ZipArchive,
} from '../archive/zip-archive';
import { ScanVerdict } from '../domain/listing.decider';
import { classifyFile } from './file-kinds';
import { classifyPrompt } from './prompt-guard';
import { qualityScore } from './quality-score';
import { findSecretKinds } from './secret-patterns';

export type ScanCheck =
  'zip_integrity' | 'manifest' | 'paths' | 'zip_bomb' | 'binaries' | 'secrets' | 'prompt_injection' | 'scanner';
export const SCAN_CHECKS: readonly ScanCheck[] = [
  'zip_integrity',
  'manifest',
  'paths',
  'zip_bomb',
  'binaries',
  'secrets',
  'prompt_injection',
  'scanner',
];

/** Entry names in findings and reports have control characters escaped (see `displayName`), so they can be stored as jsonb. */
export interface ScanFinding {
  check: ScanCheck;
  severity: 'warning' | 'failure';
  message: string;
  file?: string;
}

export interface PromptGuardReport {
  ran: boolean;
  /** True only when the guard ran over every text file (text scanning was not stopped) and labelled none as injection. */
  verified: boolean;
  perFile: { file: string; label: 'benign' | 'injection'; score: number }[];
}

export interface ScanReport {
  status: ScanVerdict;
  label: string;
  findings: ScanFinding[];
  checks: { check: ScanCheck; ok: boolean }[];
  qualityScore: number;
  promptGuard: PromptGuardReport;
  manifest: PackageManifest | null;
}

export interface ScanLimits {
  maxEntries: number;
  maxUnpackedBytes: number;
  maxCompressionRatio: number;
  maxTextFileBytes: number;
  /** Text scanned for secrets and prompt injections across the whole archive; past it, text scanning stops. */
  maxScannedTextBytes: number;
}

export const DEFAULT_SCAN_LIMITS: ScanLimits = {
  maxEntries: MAX_ARCHIVE_ENTRIES,
  maxUnpackedBytes: 200 * 1024 * 1024,
  maxCompressionRatio: 100,
  maxTextFileBytes: 1024 * 1024,
  maxScannedTextBytes: 20 * 1024 * 1024,
};

/** Entries smaller than this may compress very well without being suspicious. */
export const RATIO_MIN_BYTES = 1024 * 1024;

const STATUS_LABELS: Record<ScanVerdict, string> = { passed: 'clean', flagged: 'warnings', failed: 'unsafe' };

class ScanRun {
  readonly findings: ScanFinding[] = [];
  readonly ran = new Set<ScanCheck>(['scanner']);
  readonly perFile: PromptGuardReport['perFile'] = [];
  promptGuardRan = false;
  /** Set when the text budget ran out before every text file was scanned. */
  textScanStopped = false;
  manifest: PackageManifest | null = null;
  readmeMd: string | null = null;

  start(check: ScanCheck): void {
    this.ran.add(check);
  }

  warn(check: ScanCheck, message: string, file?: string): void {
    this.add(check, 'warning', message, file);
  }

  fail(check: ScanCheck, message: string, file?: string): void {
    this.add(check, 'failure', message, file);
  }

  hasFailure(check: ScanCheck): boolean {
    return this.findings.some((finding) => finding.check === check && finding.severity === 'failure');
  }

  private add(check: ScanCheck, severity: ScanFinding['severity'], rawMessage: string, rawFile?: string): void {
    this.ran.add(check);
    // Messages quote names already; escaping again also covers text from errors we don't control.
    const message = escapeControlChars(rawMessage);
    this.findings.push(
      rawFile === undefined ? { check, severity, message } : { check, severity, message, file: displayName(rawFile) },
    );
  }
}

/**
 * Scans a release archive in bounded memory, without extracting it. Fail-closed:
 * anything unexpected makes the scan fail rather than pass, and it never throws.
 */
export async function scanArchive(
  path: string,
  context: { signed: boolean },
  limits: ScanLimits = DEFAULT_SCAN_LIMITS,
): Promise<ScanReport> {
  const run = new ScanRun();
  let archive: ZipArchive | null = null;
  try {
    run.start('zip_integrity');
    try {
      archive = await ZipArchive.open(path, { maxEntries: limits.maxEntries });
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      run.fail('zip_integrity', error.message);
    }
    if (archive) await scanOpened(archive, limits, run);
  } catch (error) {
    run.fail('scanner', `Scanner error: ${messageOf(error)}`);
  } finally {
    try {
      archive?.close();
    } catch {
      // Closing can't change the verdict.
    }
  }
  return report(run, context);
}

async function scanOpened(archive: ZipArchive, limits: ScanLimits, run: ScanRun): Promise<void> {
  for (const entry of archive.entries) {
    if (entry.isEncrypted) run.fail('zip_integrity', `${quoteName(entry.name)} is encrypted and cannot be scanned`, entry.name);
  }

  checkPaths(archive, run);
  // Decide on bombs from the headers alone, before inflating a single byte.
  checkBombs(archive, limits, run);
  if (run.hasFailure('zip_bomb')) return;

  run.start('manifest');
  try {
    run.manifest = await readManifestFrom(archive);
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    const problems = error.details?.problems;
    if (Array.isArray(problems)) for (const problem of problems) run.fail('manifest', String(problem), 'manifest.json');
    else run.fail('manifest', error.message, 'manifest.json');
  }
  try {
    run.readmeMd = await readReadmeFrom(archive);
  } catch (error) {
    // An oversized or corrupt README only costs quality points; the content pass reports corruption.
    if (!(error instanceof DomainError)) throw error;
  }

  await scanContents(archive, limits, run);
}

function checkPaths(archive: ZipArchive, run: ScanRun): void {
  run.start('paths');
  const seen = new Map<string, number>();
  for (const entry of archive.entries) {
    const reason = unsafePathReason(entry.name);
    if (reason) run.fail('paths', `${quoteName(entry.name)} has an unsafe path: ${reason}`, entry.name);
    if (entry.isSymlink) run.fail('paths', `${quoteName(entry.name)} is a symbolic link`, entry.name);
    const key = entry.name.replace(/\\/g, '/');
    seen.set(key, (seen.get(key) ?? 0) + 1);
  }
  // Duplicates let different extractors end up with different files.
  for (const [name, count] of seen) {
    if (count > 1) run.fail('paths', `${quoteName(name)} appears ${count} times in the archive`, name);
  }
}

function checkBombs(archive: ZipArchive, limits: ScanLimits, run: ScanRun): void {
  run.start('zip_bomb');
  if (archive.truncated) {
    run.fail('zip_bomb', `The archive declares ${archive.entryCount} entries; the limit is ${limits.maxEntries}`);
  }
  let total = 0;
  for (const entry of archive.entries) {
    total += entry.uncompressedSize;
    if (entry.uncompressedSize >= RATIO_MIN_BYTES) {
      const ratio = entry.uncompressedSize / Math.max(1, entry.compressedSize);
      if (ratio > limits.maxCompressionRatio) {
        run.fail(
          'zip_bomb',
          `${quoteName(entry.name)} would expand ${Math.round(ratio)}x; the limit is ${limits.maxCompressionRatio}x`,
          entry.name,
        );
      }
    }
  }
  if (total > limits.maxUnpackedBytes) {
    run.fail('zip_bomb', `The archive would unpack to ${total} bytes; the limit is ${formatBytes(limits.maxUnpackedBytes)}`);
  }
  if (total >= RATIO_MIN_BYTES) {
    const ratio = total / Math.max(1, archive.fileSize);
    if (ratio > limits.maxCompressionRatio) {
      run.fail('zip_bomb', `The archive would expand ${Math.round(ratio)}x; the limit is ${limits.maxCompressionRatio}x`);
    }
  }
  for (const entry of archive.overlappingEntries()) {
    run.fail('zip_bomb', `${quoteName(entry.name)} overlaps another entry's data`, entry.name);
  }
}

async function scanContents(archive: ZipArchive, limits: ScanLimits, run: ScanRun): Promise<void> {
  run.start('binaries');
  run.start('secrets');
  run.start('prompt_injection');
  const decoder = new TextDecoder('utf-8');
  let textBudget = limits.maxScannedTextBytes;
  let unscannedTextFiles = 0;
  for (const entry of archive.entries) {
    if (entry.isDirectory || entry.isSymlink || entry.isEncrypted) continue;
    let head: Buffer;
    let size: number;
    try {
      // Inflates the whole entry to check its size and CRC, but keeps at most maxTextFileBytes.
      ({ head, size } = await archive.inspect(entry, limits.maxTextFileBytes));
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      run.fail('zip_integrity', error.message, entry.name);
      continue;
    }

    const kind = classifyFile(entry.name, head, entry.unixMode);
    if (kind.warning) run.warn('binaries', `${quoteName(entry.name)} ${kind.warning}`, entry.name);
    if (!kind.scanAsText) continue;

    // Bounds the CPU spent on regular expressions, whatever the archive holds.
    if (head.length > textBudget) {
      unscannedTextFiles++;
      if (textBudget === 0) continue;
      head = head.subarray(0, textBudget);
    }
    textBudget -= head.length;

    if (size > limits.maxTextFileBytes) {
      run.warn(
        'scanner',
        `${quoteName(entry.name)} is larger than ${formatBytes(limits.maxTextFileBytes)}; only its start was scanned`,
        entry.name,
      );
    }
    const content = decoder.decode(head);
    const secrets = findSecretKinds(content);
    if (secrets.length > 0)
      run.warn('secrets', `${quoteName(entry.name)} appears to contain a secret: ${secrets.join(', ')}`, entry.name);

    const verdict = classifyPrompt(content);
    run.perFile.push({ file: displayName(entry.name), label: verdict.label, score: verdict.score });
    if (verdict.label === 'injection') {
      run.warn(
        'prompt_injection',
        `${quoteName(entry.name)} looks like a prompt injection (score ${verdict.score.toFixed(2)}; signals: ${verdict.signals.join(', ')})`,
        entry.name,
      );
    }
  }
  if (unscannedTextFiles > 0) {
    run.textScanStopped = true;
    run.warn(
      'scanner',
      `Text scanning stopped after ${formatBytes(limits.maxScannedTextBytes)}; ${unscannedTextFiles} text ${
        unscannedTextFiles === 1 ? 'file was' : 'files were'
      } not checked, or only in part, for secrets and prompt injections`,
    );
  }
  run.promptGuardRan = true;
}

function report(run: ScanRun, context: { signed: boolean }): ScanReport {
  const status: ScanVerdict = run.findings.some((f) => f.severity === 'failure')
    ? 'failed'
    : run.findings.some((f) => f.severity === 'warning')
      ? 'flagged'
      : 'passed';
  let score = 0;
  if (run.manifest) {
    try {
      score = qualityScore({ manifest: run.manifest, readmeMd: run.readmeMd, signed: context.signed });
    } catch {
      score = 0;
    }
  }
  return {
    status,
    label: STATUS_LABELS[status],
    findings: run.findings,
    checks: SCAN_CHECKS.filter((check) => run.ran.has(check)).map((check) => ({
      check,
      ok: !run.findings.some((finding) => finding.check === check),
    })),
    qualityScore: score,
    promptGuard: {
      ran: run.promptGuardRan,
      verified: run.promptGuardRan && !run.textScanStopped && run.perFile.every((file) => file.label === 'benign'),
      perFile: run.perFile,
    },
    manifest: run.manifest,
  };
}
