/** Extensions we always treat as text, whatever the bytes look like. */
// prettier-ignore
export const TEXT_EXTENSIONS: ReadonlySet<string> = new Set([
  'md', 'mdc', 'mdx', 'markdown', 'txt', 'text', 'rst', 'adoc', 'org',
  'json', 'jsonc', 'json5', 'jsonl', 'yaml', 'yml', 'toml', 'ini', 'cfg', 'conf', 'env', 'properties', 'editorconfig',
  'csv', 'tsv', 'xml', 'html', 'htm', 'svg', 'css', 'scss', 'less',
  'js', 'mjs', 'cjs', 'jsx', 'ts', 'mts', 'cts', 'tsx', 'vue', 'svelte',
  'py', 'rb', 'go', 'rs', 'java', 'kt', 'swift', 'c', 'h', 'cc', 'cpp', 'hpp', 'cs', 'php', 'lua', 'pl', 'r', 'sql',
  'sh', 'bash', 'zsh', 'fish', 'ps1', 'bat', 'cmd',
  'graphql', 'gql', 'proto', 'tmpl', 'tpl', 'hbs', 'mustache', 'liquid', 'j2', 'jinja', 'prompt', 'gitignore', 'dockerignore', 'lock',
]);

const TEXT_BASENAMES: ReadonlySet<string> = new Set([
  'dockerfile',
  'makefile',
  'license',
  'licence',
  'notice',
  'authors',
  'changelog',
  'codeowners',
]);

/** Compiled code and libraries: flagged whatever their content. */
// prettier-ignore
export const BINARY_EXTENSIONS: ReadonlySet<string> = new Set([
  'exe', 'dll', 'so', 'dylib', 'bin', 'com', 'msi', 'scr', 'pif', 'sys', 'class', 'jar', 'pyc', 'o', 'a', 'wasm',
]);

/** Archives inside the archive: nothing in them gets scanned, so they are flagged whatever their content. */
// prettier-ignore
export const ARCHIVE_EXTENSIONS: ReadonlySet<string> = new Set([
  'zip', 'tar', 'gz', 'tgz', 'bz2', 'tbz', 'tbz2', 'xz', 'txz', 'zst', 'lz', 'lzma', '7z', 'rar', 'cab', 'arj',
  'war', 'ear', 'apk', 'ipa', 'whl', 'egg', 'nupkg', 'vsix', 'crx', 'xpi', 'deb', 'rpm', 'dmg', 'iso', 'img', 'pkg',
]);

/**
 * Text files meant to be run: shell and Windows scripts, and other types an OS
 * runs on a double-click. They are still scanned as text.
 */
// prettier-ignore
export const SCRIPT_EXTENSIONS: ReadonlySet<string> = new Set([
  'sh', 'bash', 'zsh', 'ksh', 'csh', 'tcsh', 'fish', 'command', 'tool', 'run',
  'ps1', 'psm1', 'bat', 'cmd', 'vbs', 'vbe', 'jse', 'wsf', 'wsh', 'hta', 'reg', 'applescript',
]);

export const SNIFF_BYTES = 8 * 1024;

export function extensionOf(name: string): string {
  const base = baseName(name);
  const dot = base.lastIndexOf('.');
  return dot < 0 ? '' : base.slice(dot + 1).toLowerCase();
}

export function baseName(name: string): string {
  const parts = name.split(/[\\/]/);
  return parts[parts.length - 1] ?? '';
}

export function hasTextName(name: string): boolean {
  const base = baseName(name).toLowerCase();
  return TEXT_EXTENSIONS.has(extensionOf(name)) || TEXT_BASENAMES.has(base) || base.startsWith('.env');
}

/** True when the first bytes are NUL-free, valid UTF-8 (a cut-off character at the end is fine). */
export function looksLikeText(head: Buffer): boolean {
  const sample = head.subarray(0, SNIFF_BYTES);
  if (sample.includes(0)) return false;
  try {
    // stream: true tolerates a multi-byte character cut by the sample's end.
    new TextDecoder('utf-8', { fatal: true }).decode(sample, { stream: true });
    return true;
  } catch {
    return false;
  }
}

export function isTextFile(name: string, head: Buffer): boolean {
  return hasTextName(name) || looksLikeText(head);
}

/** Bytes at an offset; a signature is a list of them that must all match. */
type Signature = { offset?: number; bytes: number[] }[];

const ascii = (text: string, offset = 0) => ({ offset, bytes: [...Buffer.from(text, 'latin1')] });

function matches(head: Buffer, signature: Signature): boolean {
  return signature.every(
    ({ offset = 0, bytes }) => head.length >= offset + bytes.length && bytes.every((byte, i) => head[offset + i] === byte),
  );
}

const EXECUTABLE_MAGIC: { label: string; signature: Signature }[] = [
  { label: 'an ELF executable', signature: [{ bytes: [0x7f, 0x45, 0x4c, 0x46] }] },
  { label: 'a Mach-O binary', signature: [{ bytes: [0xfe, 0xed, 0xfa, 0xce] }] },
  { label: 'a Mach-O binary', signature: [{ bytes: [0xfe, 0xed, 0xfa, 0xcf] }] },
  { label: 'a Mach-O binary', signature: [{ bytes: [0xce, 0xfa, 0xed, 0xfe] }] },
  { label: 'a Mach-O binary', signature: [{ bytes: [0xcf, 0xfa, 0xed, 0xfe] }] },
  { label: 'a Mach-O universal binary or Java class', signature: [{ bytes: [0xca, 0xfe, 0xba, 0xbe] }] },
  { label: 'a Mach-O universal binary', signature: [{ bytes: [0xbe, 0xba, 0xfe, 0xca] }] },
  { label: 'a WebAssembly module', signature: [{ bytes: [0x00, 0x61, 0x73, 0x6d] }] },
];

/** `weak` signatures are plain ASCII a text file could start with, so they only count for binary-looking files. */
const ARCHIVE_MAGIC: { label: string; signature: Signature; weak?: boolean }[] = [
  { label: 'zip', signature: [{ bytes: [0x50, 0x4b, 0x03, 0x04] }] },
  { label: 'zip', signature: [{ bytes: [0x50, 0x4b, 0x05, 0x06] }] },
  { label: 'zip', signature: [{ bytes: [0x50, 0x4b, 0x07, 0x08] }] },
  { label: 'gzip', signature: [{ bytes: [0x1f, 0x8b] }] },
  { label: '7z', signature: [{ bytes: [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c] }] },
  { label: 'rar', signature: [ascii('Rar!\x1a\x07')] },
  { label: 'xz', signature: [{ bytes: [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00] }] },
  { label: 'zstd', signature: [{ bytes: [0x28, 0xb5, 0x2f, 0xfd] }] },
  { label: 'bzip2', signature: [ascii('BZh')], weak: true },
  { label: 'cab', signature: [ascii('MSCF')], weak: true },
  { label: 'tar', signature: [ascii('ustar', 257)], weak: true },
];

/** Binary files allowed without a warning: common images and fonts, when the extension and the content agree. */
const MEDIA: Record<string, { label: string; signatures: Signature[] }> = {
  png: { label: 'PNG image', signatures: [[{ bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] }]] },
  jpg: { label: 'JPEG image', signatures: [[{ bytes: [0xff, 0xd8, 0xff] }]] },
  jpeg: { label: 'JPEG image', signatures: [[{ bytes: [0xff, 0xd8, 0xff] }]] },
  gif: { label: 'GIF image', signatures: [[ascii('GIF87a')], [ascii('GIF89a')]] },
  webp: { label: 'WebP image', signatures: [[ascii('RIFF'), ascii('WEBP', 8)]] },
  ico: { label: 'icon', signatures: [[{ bytes: [0x00, 0x00, 0x01, 0x00] }]] },
  woff: { label: 'WOFF font', signatures: [[ascii('wOFF')]] },
  woff2: { label: 'WOFF2 font', signatures: [[ascii('wOF2')]] },
  ttf: { label: 'TrueType font', signatures: [[{ bytes: [0x00, 0x01, 0x00, 0x00] }], [ascii('true')]] },
  otf: { label: 'OpenType font', signatures: [[ascii('OTTO')], [{ bytes: [0x00, 0x01, 0x00, 0x00] }]] },
};

export interface FileVerdict {
  /** Whether to scan the content for secrets and prompt injections. */
  scanAsText: boolean;
  /** Why the file is flagged under `binaries` (completing "<name> …"), or null. */
  warning: string | null;
}

/**
 * Decides from a file's name, first bytes and unix mode whether to scan it as
 * text and whether to flag it: executables, nested archives and every other
 * binary except known images and fonts, plus text scripts meant to be run.
 */
export function classifyFile(name: string, head: Buffer, unixMode: number | null): FileVerdict {
  const extension = extensionOf(name);
  const textContent = looksLikeText(head);
  const text = hasTextName(name) || textContent;
  const executable = unixMode !== null && (unixMode & 0o111) !== 0;
  const flag = (warning: string): FileVerdict => ({ scanAsText: false, warning });

  if (BINARY_EXTENSIONS.has(extension)) return flag(`has the binary extension .${extension}`);
  const program = EXECUTABLE_MAGIC.find((magic) => matches(head, magic.signature));
  if (program) return flag(`is ${program.label}`);
  const archive = ARCHIVE_MAGIC.find((magic) => (!magic.weak || !textContent) && matches(head, magic.signature));
  if (archive) return flag(`is a nested archive (${archive.label})`);
  if (ARCHIVE_EXTENSIONS.has(extension)) return flag(`is a nested archive (.${extension})`);

  if (!text) {
    // "MZ" alone is too weak for text, so only binary-looking files count as Windows executables.
    if (head.length >= 2 && head[0] === 0x4d && head[1] === 0x5a) return flag('is a Windows executable');
    if (executable) return flag('is a binary file marked executable');
    const media = MEDIA[extension];
    if (media?.signatures.some((signature) => matches(head, signature))) return { scanAsText: false, warning: null };
    if (media) return flag(`is a binary file whose content is not the ${media.label} its extension .${extension} claims`);
    return flag('is a binary file');
  }

  // Text by name only: still scanned, but a NUL byte means binary (or UTF-16) content the scan can't read well.
  if (!textContent && head.subarray(0, SNIFF_BYTES).includes(0)) {
    return { scanAsText: true, warning: 'is a binary file with a text file name' };
  }
  const script = [...(SCRIPT_EXTENSIONS.has(extension) ? [`.${extension}`] : []), ...(executable ? ['marked executable'] : [])];
  if (script.length > 0) return { scanAsText: true, warning: `is an executable script (${script.join(', ')})` };
  return { scanAsText: true, warning: null };
}
