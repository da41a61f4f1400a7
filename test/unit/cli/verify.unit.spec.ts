import { sign } from 'node:crypto';
import { checkSignature } from '../../../cli/src/install/verify';
import { checkName, UnsafeArchiveError } from '../../../cli/src/install/unpack';
import { parsePackageRef } from '../../../cli/src/commands/catalog';
import { keyPair } from '../../support/signing-keys';

const archive = Buffer.from('the archive bytes');

describe('checkSignature', () => {
  it.each(['ed25519', 'p256'] as const)('accepts a %s signature by the active key', (kind) => {
    const key = keyPair(kind);
    const release = { signature: key.sign(archive), signingKeyFingerprint: key.fingerprint };
    expect(checkSignature(archive, release, { publicKey: key.publicKeyPem, fingerprint: key.fingerprint }, false)).toEqual({
      signed: true,
      fingerprint: key.fingerprint,
    });
  });

  it('accepts ECDSA in raw r||s form too, as the server does', () => {
    const key = keyPair('p256');
    const raw = sign('sha256', archive, { key: key.privateKey, dsaEncoding: 'ieee-p1363' }).toString('base64');
    const active = { publicKey: key.publicKeyPem, fingerprint: key.fingerprint };
    expect(checkSignature(archive, { signature: raw, signingKeyFingerprint: key.fingerprint }, active, false).signed).toBe(true);
  });

  it('refuses other bytes, another key, a fingerprint the key does not have, and no key at all', () => {
    const key = keyPair();
    const other = keyPair();
    const release = { signature: key.sign(archive), signingKeyFingerprint: key.fingerprint };
    const active = { publicKey: key.publicKeyPem, fingerprint: key.fingerprint };
    expect(() => checkSignature(Buffer.from('tampered'), release, active, false)).toThrow(/does not verify/);
    expect(() =>
      checkSignature(
        archive,
        { ...release, signingKeyFingerprint: null },
        { publicKey: other.publicKeyPem, fingerprint: key.fingerprint },
        false,
      ),
    ).toThrow(/does not verify/);
    // The served fingerprint is not trusted: the one computed from the key must match the release's.
    expect(() =>
      checkSignature(archive, release, { publicKey: other.publicKeyPem, fingerprint: key.fingerprint }, false),
    ).toThrow(/signed with key/);
    expect(() => checkSignature(archive, release, null, true)).toThrow(/no active signing key/);
    expect(() => checkSignature(archive, { ...release, signature: 'not base64 at all!' }, active, false)).toThrow(
      /does not verify/,
    );
  });

  it('refuses an unsigned release unless allowed', () => {
    const unsigned = { signature: null, signingKeyFingerprint: null };
    expect(() => checkSignature(archive, unsigned, null, false)).toThrow(/--allow-unsigned/);
    expect(checkSignature(archive, unsigned, null, true)).toEqual({ signed: false, fingerprint: null });
    const unpublished = { signature: null, signingKeyFingerprint: 'ab'.repeat(32) };
    expect(() => checkSignature(archive, unpublished, null, false)).toThrow(
      /not published, so it cannot be verified.*--allow-unsigned/,
    );
  });
});

describe('checkName', () => {
  it.each(['a.md', 'dir/b.md', 'dir/', 'x/y/z.txt'])('keeps %s', (name) => expect(checkName(name)).toBe(name.replace(/\/$/, '')));
  it.each(['../x', 'a/../../x', '/etc/passwd', 'C:/x', 'a\\b', 'a//b', './a', 'a\u0000b', ''])('refuses %j', (name) =>
    expect(() => checkName(name)).toThrow(UnsafeArchiveError),
  );
});

describe('parsePackageRef', () => {
  it('reads vendor/slug and an optional version', () => {
    expect(parsePackageRef('acme/pdf-tools')).toEqual({ vendor: 'acme', slug: 'pdf-tools', version: undefined });
    expect(parsePackageRef('acme/pdf-tools@1.2.0')).toEqual({ vendor: 'acme', slug: 'pdf-tools', version: '1.2.0' });
  });
  it.each(['acme', 'acme/', '/x', 'Acme/x', 'a/b/c', 'a/../b', 'a/b@'])('refuses %j as a usage error', (ref) =>
    expect(() => parsePackageRef(ref)).toThrow(expect.objectContaining({ exitCode: 2 })),
  );
});
