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

export const BINARY_EXTENSIONS: ReadonlySet<string> = new Set([
  'exe',
  'dll',
  'so',
  'dylib',
  'bin',
  'com',
  'msi',
  'class',
  'jar',
  'pyc',
  'o',
  'a',
  'wasm',
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

const MAGIC: { label: string; bytes: number[] }[] = [
  { label: 'an ELF executable', bytes: [0x7f, 0x45, 0x4c, 0x46] },
  { label: 'a Mach-O binary', bytes: [0xfe, 0xed, 0xfa, 0xce] },
  { label: 'a Mach-O binary', bytes: [0xfe, 0xed, 0xfa, 0xcf] },
  { label: 'a Mach-O binary', bytes: [0xce, 0xfa, 0xed, 0xfe] },
  { label: 'a Mach-O binary', bytes: [0xcf, 0xfa, 0xed, 0xfe] },
  { label: 'a Mach-O universal binary or Java class', bytes: [0xca, 0xfe, 0xba, 0xbe] },
  { label: 'a Mach-O universal binary', bytes: [0xbe, 0xba, 0xfe, 0xca] },
  { label: 'a WebAssembly module', bytes: [0x00, 0x61, 0x73, 0x6d] },
];

/** Why a file looks like an executable or binary, or null. */
export function binaryReason(name: string, head: Buffer, unixMode: number | null, isText: boolean): string | null {
  const extension = extensionOf(name);
  if (BINARY_EXTENSIONS.has(extension)) return `has the binary extension .${extension}`;
  for (const magic of MAGIC) {
    if (head.length >= magic.bytes.length && magic.bytes.every((byte, i) => head[i] === byte)) return `is ${magic.label}`;
  }
  // "MZ" alone is too weak for text, so only binary-looking files count as Windows executables.
  if (!isText && head.length >= 2 && head[0] === 0x4d && head[1] === 0x5a) return 'is a Windows executable';
  if (!isText && unixMode !== null && (unixMode & 0o111) !== 0) return 'is a binary file marked executable';
  return null;
}
