import { PackageManifest } from '../../../src/modules/catalog/archive/package-manifest';
import { escapeControlChars, hasControlChars } from '../../../src/modules/catalog/archive/control-chars';
import {
  displayName,
  formatBytes,
  MAX_ARCHIVE_ENTRIES,
  quoteName,
  unsafePathReason,
} from '../../../src/modules/catalog/archive/zip-archive';
import { DEFAULT_SCAN_LIMITS } from '../../../src/modules/catalog/scanning/archive-scanner';
import { classifyFile, isTextFile, looksLikeText } from '../../../src/modules/catalog/scanning/file-kinds';
import { qualityScore } from '../../../src/modules/catalog/scanning/quality-score';
import { findSecretKinds } from '../../../src/modules/catalog/scanning/secret-patterns';

describe('unsafePathReason', () => {
  it.each(['manifest.json', 'docs/usage.md', 'a/b/c..d/e', '..hidden', 'dir/'])('accepts %p', (name) => {
    expect(unsafePathReason(name)).toBeNull();
  });

  it.each([
    ['', 'empty'],
    ['/etc/passwd', 'absolute'],
    ['\\windows\\system32', 'absolute'],
    ['C:/x.txt', 'drive letter'],
    ['c:x.txt', 'drive letter'],
    ['../evil.txt', '".."'],
    ['a/../../evil.txt', '".."'],
    ['a\\..\\evil.txt', '".."'],
    ['..', '".."'],
    ['ok\0.txt', 'NUL'],
    ['bad\x1b[31m.txt', 'control'],
  ])('rejects %p', (name, reason) => {
    expect(unsafePathReason(name)).toContain(reason);
  });
});

describe('control characters in names', () => {
  it.each([
    ['x\0.md', 'x\\x00.md'],
    ['tab\there', 'tab\\x09here'],
    ['line\r\nbreak', 'line\\x0d\\x0abreak'],
    ['esc\x1b[31m.txt', 'esc\\x1b[31m.txt'],
    ['del\x7f', 'del\\x7f'],
    ['\x1f', '\\x1f'],
    ['docs\\..\\café.md', 'docs\\..\\café.md'],
    ['', ''],
  ])('displays %p as %p', (name, shown) => {
    expect(displayName(name)).toBe(shown);
    expect(escapeControlChars(name)).toBe(shown);
    expect(hasControlChars(displayName(name))).toBe(false);
  });

  it('quotes names for messages with the same escapes, and truncates long ones', () => {
    expect(quoteName('x\0.md')).toBe('"x\\x00.md"');
    expect(quoteName('a'.repeat(300))).toHaveLength(201);
    expect(hasControlChars(quoteName('\0'.repeat(300)))).toBe(false);
  });

  it('allows tabs and line breaks only when asked', () => {
    expect(hasControlChars('a\tb\nc\r')).toBe(true);
    expect(hasControlChars('a\tb\nc\r', { allowLineBreaks: true })).toBe(false);
    expect(hasControlChars('a\0b', { allowLineBreaks: true })).toBe(true);
    expect(hasControlChars('a\x7f', { allowLineBreaks: true })).toBe(true);
    expect(hasControlChars('plain — ünïcode')).toBe(false);
  });
});

describe('limits', () => {
  it('uses one entry limit for uploads and scans', () => {
    expect(MAX_ARCHIVE_ENTRIES).toBe(5000);
    expect(DEFAULT_SCAN_LIMITS.maxEntries).toBe(MAX_ARCHIVE_ENTRIES);
  });

  it('caps the text scanned per archive at 20 MiB and keeps the other limits', () => {
    expect(DEFAULT_SCAN_LIMITS).toEqual({
      maxEntries: 5000,
      maxUnpackedBytes: 200 * 1024 * 1024,
      maxCompressionRatio: 100,
      maxTextFileBytes: 1024 * 1024,
      maxScannedTextBytes: 20 * 1024 * 1024,
    });
  });
});

describe('formatBytes', () => {
  it.each([
    [64 * 1024, '64 KiB'],
    [1024 * 1024, '1 MiB'],
    [1000, '1000 bytes'],
  ])('formats %i as %p', (bytes, text) => expect(formatBytes(bytes)).toBe(text));
});

describe('findSecretKinds', () => {
  // Built from pieces so this file itself doesn't look like it holds secrets.
  const aws = 'AKIA' + 'Q3EGRWJ5LT7NXK2P';
  it.each([
    ['-----BEGIN RSA PRIVATE KEY-----\nMIIE...', 'private key'],
    ['-----BEGIN OPENSSH PRIVATE KEY-----', 'private key'],
    ['-----BEGIN ENCRYPTED PRIVATE KEY-----', 'private key'],
    ['-----BEGIN PRIVATE KEY-----', 'private key'],
    [`aws_access_key_id = ${aws}`, 'AWS access key ID'],
    ['token: ghp_' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8', 'GitHub token'],
    ['STRIPE=sk_live_' + '4eC39HqLyjWDarjtT1zdp7dc', 'Stripe live key'],
    ['SLACK=xoxb-' + '123456789012-abcdefABCDEF', 'Slack token'],
    ['OPENAI_API_KEY=sk-' + 'proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z', 'OpenAI-style API key'],
    ['key=AIza' + 'SyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY', 'Google API key'],
  ])('finds %p', (text, kind) => {
    expect(findSecretKinds(text)).toEqual([kind]);
  });

  it.each([
    'AWS example: AKIAIOSFODNN7EXAMPLE',
    'pip install scikit-learn # sk-learn-compatible-estimators-and-pipelines',
    'Set OPENAI_API_KEY=sk-... in your shell',
    'sk_test_4eC39HqLyjWDarjtT1zdp7dc',
    'The public key: -----BEGIN PUBLIC KEY-----',
  ])('ignores %p', (text) => {
    expect(findSecretKinds(text)).toEqual([]);
  });
});

describe('file kinds', () => {
  it('sniffs text as NUL-free UTF-8', () => {
    expect(looksLikeText(Buffer.from('héllo\n'))).toBe(true);
    expect(looksLikeText(Buffer.from([0x68, 0x00, 0x69]))).toBe(false);
    expect(looksLikeText(Buffer.from([0xff, 0xfe, 0x41]))).toBe(false);
    // A multi-byte character cut off by the sniff window is still text.
    expect(looksLikeText(Buffer.concat([Buffer.alloc(8 * 1024 - 1, 0x61), Buffer.from('é')]))).toBe(true);
  });

  it('treats known extensions as text regardless of content', () => {
    expect(isTextFile('rules/style.mdc', Buffer.from([0xff, 0x00]))).toBe(true);
    expect(isTextFile('blob', Buffer.from([0xff, 0x00]))).toBe(false);
  });

  const bytes = (...parts: (number[] | string | Buffer)[]) =>
    Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'latin1') : Buffer.from(part))));
  const noise = bytes([0x00, 0xff, 0xfe, 0x13, 0x80, 0x00, 0x9c]);
  const png = bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], [0, 0, 0, 13]);
  const tar = Buffer.concat([Buffer.from('file.txt'), Buffer.alloc(249), Buffer.from('ustar\0'), Buffer.alloc(100)]);

  it.each<[string, Buffer, number | null, string]>([
    ['tool.exe', Buffer.from('hi'), null, 'has the binary extension .exe'],
    ['lib/x.WASM', Buffer.alloc(0), null, 'has the binary extension .wasm'],
    ['bin/tool', bytes([0x7f, 0x45, 0x4c, 0x46, 2, 1]), null, 'is an ELF executable'],
    ['notes.md', bytes([0x7f, 0x45, 0x4c, 0x46]), null, 'is an ELF executable'],
    ['tool', bytes([0xcf, 0xfa, 0xed, 0xfe]), null, 'is a Mach-O binary'],
    ['tool', bytes([0xfe, 0xed, 0xfa, 0xcf]), null, 'is a Mach-O binary'],
    ['mod', bytes([0x00, 0x61, 0x73, 0x6d]), null, 'is a WebAssembly module'],
    ['setup', bytes([0x4d, 0x5a, 0x90, 0x00]), null, 'is a Windows executable'],
    ['data.bin2', bytes([0x01, 0x00]), 0o100755, 'is a binary file marked executable'],
    // Nested archives, by magic whatever the name, or by extension.
    ['vendor/deps.zip', bytes('PK\x03\x04', [0x14, 0x00]), null, 'is a nested archive (zip)'],
    ['docs/readme.md', bytes('PK\x03\x04', [0x14, 0x00]), null, 'is a nested archive (zip)'],
    ['pkg.tar.gz', bytes([0x1f, 0x8b, 0x08, 0x00]), null, 'is a nested archive (gzip)'],
    ['things.7z', bytes([0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c, 0x00, 0x04]), null, 'is a nested archive (7z)'],
    ['things.rar', bytes('Rar!\x1a\x07\x01\x00'), null, 'is a nested archive (rar)'],
    ['data', bytes([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]), null, 'is a nested archive (xz)'],
    ['data', bytes([0x28, 0xb5, 0x2f, 0xfd]), null, 'is a nested archive (zstd)'],
    ['data', bytes('BZh91AY&SY', [0x00, 0xff]), null, 'is a nested archive (bzip2)'],
    ['backup', tar, null, 'is a nested archive (tar)'],
    ['empty.zip', Buffer.alloc(0), null, 'is a nested archive (.zip)'],
    ['plugin.whl', Buffer.from('not really a wheel'), null, 'is a nested archive (.whl)'],
    // Any other binary content, and allow-listed extensions whose content doesn't match.
    ['blob', noise, null, 'is a binary file'],
    ['model.safetensors', noise, 0o100644, 'is a binary file'],
    ['fake.png', noise, null, 'is a binary file whose content is not the PNG image its extension .png claims'],
    ['photo.jpg', png, null, 'is a binary file whose content is not the JPEG image its extension .jpg claims'],
    ['latin1.txt2', bytes('caf', [0xe9], ' au lait'), null, 'is a binary file'],
    // Text names with NUL bytes (binary or UTF-16 content) are scanned, but flagged.
    ['README.md', Buffer.from('\ufeffhi', 'utf16le'), null, 'is a binary file with a text file name'],
    // Scripts meant to be run.
    ['run.sh', Buffer.from('#!/bin/sh\necho hi\n'), 0o100755, 'is an executable script (.sh, marked executable)'],
    ['run.sh', Buffer.from('#!/bin/sh\necho hi\n'), 0o100644, 'is an executable script (.sh)'],
    ['install.PS1', Buffer.from('Write-Host hi'), null, 'is an executable script (.ps1)'],
    ['setup.bat', Buffer.from('@echo off'), null, 'is an executable script (.bat)'],
    ['setup.CMD', Buffer.from('@echo off'), null, 'is an executable script (.cmd)'],
    ['Start.command', Buffer.from('#!/bin/zsh\nopen .'), null, 'is an executable script (.command)'],
    ['go.zsh', Buffer.from('print hi'), null, 'is an executable script (.zsh)'],
    ['go.bash', Buffer.from('echo hi'), null, 'is an executable script (.bash)'],
    ['hello.vbs', Buffer.from('MsgBox "hi"'), null, 'is an executable script (.vbs)'],
    ['bin/tool', Buffer.from('#!/usr/bin/env node\n'), 0o100755, 'is an executable script (marked executable)'],
    ['notes.md', Buffer.from('# notes'), 0o100775, 'is an executable script (marked executable)'],
  ])('flags %p', (name, head, mode, warning) => {
    expect(classifyFile(name, head, mode).warning).toBe(warning);
  });

  it.each<[string, Buffer, number | null, boolean]>([
    ['icon.png', png, 0o100644, false],
    ['photo.JPG', bytes([0xff, 0xd8, 0xff, 0xe0], noise), null, false],
    ['photo.jpeg', bytes([0xff, 0xd8, 0xff, 0xdb], noise), null, false],
    ['anim.gif', bytes('GIF89a', noise), null, false],
    ['old.gif', bytes('GIF87a', noise), null, false],
    ['pic.webp', bytes('RIFF', [0x24, 0, 0, 0], 'WEBPVP8 ', noise), null, false],
    ['favicon.ico', bytes([0, 0, 1, 0, 1, 0], noise), null, false],
    ['font.woff', bytes('wOFF', noise), null, false],
    ['font.woff2', bytes('wOF2', noise), null, false],
    ['font.ttf', bytes([0, 1, 0, 0], noise), null, false],
    ['font.otf', bytes('OTTO', noise), null, false],
    ['logo.svg', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), null, true],
    ['MZ.md', Buffer.from('MZ is a text header'), null, true],
    ['BZh.txt', Buffer.from('BZh is how bzip2 files start'), null, true],
    ['PROMPT', Buffer.from('plain text without an extension'), null, true],
    ['rules/style.mdc', Buffer.from('---\ndescription: x\n---\n'), 0o100644, true],
    ['scripts/helper.py', Buffer.from('print("hi")\n'), null, true],
  ])('allows %p', (name, head, mode, scanAsText) => {
    expect(classifyFile(name, head, mode)).toEqual({ scanAsText, warning: null });
  });

  it('still scans text scripts and text names with binary content, but not binaries', () => {
    expect(classifyFile('run.sh', Buffer.from('echo'), 0o100755).scanAsText).toBe(true);
    expect(classifyFile('notes.md', Buffer.from([0x61, 0x00, 0x62]), null).scanAsText).toBe(true);
    expect(classifyFile('blob', noise, null).scanAsText).toBe(false);
    expect(classifyFile('deps.zip', Buffer.from('PK\x03\x04'), null).scanAsText).toBe(false);
  });
});

describe('qualityScore', () => {
  const manifest: PackageManifest = {
    slug: 'x1',
    version: '1.0.0',
    type: 'rule',
    title: 'X',
    description: 'd'.repeat(200),
    targets: ['cursor', 'codex'],
    tags: ['a', 'b', 'c'],
    tools: [],
  };
  const readme = `# Title\n\n${'Words and more words. '.repeat(20)}`;

  it('gives full marks to a complete, signed package', () => {
    expect(qualityScore({ manifest, readmeMd: readme, signed: true })).toBe(100);
  });

  it('weights each signal as documented', () => {
    expect(qualityScore({ manifest, readmeMd: readme, signed: false })).toBe(80);
    expect(qualityScore({ manifest, readmeMd: null, signed: false })).toBe(45);
    expect(qualityScore({ manifest, readmeMd: 'short', signed: false })).toBe(60);
    expect(qualityScore({ manifest: { ...manifest, description: 'd'.repeat(100) }, readmeMd: null, signed: false })).toBe(35);
    expect(qualityScore({ manifest: { ...manifest, tags: ['a'], targets: ['cursor'] }, readmeMd: null, signed: false })).toBe(30);
  });
});
