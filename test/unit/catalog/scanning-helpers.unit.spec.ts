import { PackageManifest } from '../../../src/modules/catalog/archive/package-manifest';
import { formatBytes, unsafePathReason } from '../../../src/modules/catalog/archive/zip-archive';
import { binaryReason, isTextFile, looksLikeText } from '../../../src/modules/catalog/scanning/file-kinds';
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

  it.each<[string, Buffer, number | null, boolean, string | null]>([
    ['tool.exe', Buffer.from('hi'), null, true, 'extension .exe'],
    ['lib/x.WASM', Buffer.alloc(0), null, false, 'extension .wasm'],
    ['bin/tool', Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1]), null, false, 'ELF'],
    ['notes.md', Buffer.from([0x7f, 0x45, 0x4c, 0x46]), null, true, 'ELF'],
    ['tool', Buffer.from([0xcf, 0xfa, 0xed, 0xfe]), null, false, 'Mach-O'],
    ['tool', Buffer.from([0xfe, 0xed, 0xfa, 0xcf]), null, false, 'Mach-O'],
    ['mod', Buffer.from([0x00, 0x61, 0x73, 0x6d]), null, false, 'WebAssembly'],
    ['setup', Buffer.from([0x4d, 0x5a, 0x90, 0x00]), null, false, 'Windows'],
    ['data.bin2', Buffer.from([0x01, 0x00]), 0o100755, false, 'marked executable'],
    ['MZ.md', Buffer.from('MZ is a text header'), null, true, null],
    ['run.sh', Buffer.from('#!/bin/sh\necho hi\n'), 0o100755, true, null],
    ['image.png', Buffer.from([0x89, 0x50, 0x4e, 0x47]), 0o100644, false, null],
  ])('classifies %p', (name, head, mode, text, reason) => {
    const result = binaryReason(name, head, mode, text);
    if (reason === null) expect(result).toBeNull();
    else expect(result).toContain(reason);
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
