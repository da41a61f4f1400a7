import { createHash, generateKeyPairSync, KeyObject, sign } from 'node:crypto';
import { parseSigningKey, verifyArchiveSignature } from '../../../src/modules/vendors/domain/signing-key';
import { errorOf } from '../../support/decider';

const spkiPem = (key: KeyObject) => key.export({ type: 'spki', format: 'pem' }).toString();
const spkiSha256 = (key: KeyObject) =>
  createHash('sha256')
    .update(key.export({ type: 'spki', format: 'der' }))
    .digest('hex');

const ed = generateKeyPairSync('ed25519');
const p256 = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const archive = Buffer.from('PK\x03\x04 pretend this is a zip archive');

describe('parseSigningKey', () => {
  it('accepts an Ed25519 key, with the SPKI DER sha256 as fingerprint', () => {
    const parsed = parseSigningKey(spkiPem(ed.publicKey));
    expect(parsed.algorithm).toBe('ed25519');
    expect(parsed.fingerprint).toBe(spkiSha256(ed.publicKey));
    expect(parsed.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(parsed.publicKeyPem).toBe(spkiPem(ed.publicKey));
  });

  it('accepts an ECDSA P-256 key', () => {
    const parsed = parseSigningKey(spkiPem(p256.publicKey));
    expect(parsed.algorithm).toBe('ecdsa-p256');
    expect(parsed.fingerprint).toBe(spkiSha256(p256.publicKey));
  });

  it('gives the same fingerprint and canonical PEM for CRLF line endings and blank lines around it', () => {
    const pem = spkiPem(ed.publicKey);
    const parsed = parseSigningKey(`\n${pem.replace(/\n/g, '\r\n')}\n\n`);
    expect(parsed.fingerprint).toBe(spkiSha256(ed.publicKey));
    expect(parsed.publicKeyPem).toBe(pem);
  });

  it('refuses an RSA key (400)', () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 });
    const error = errorOf(() => parseSigningKey(spkiPem(rsa.publicKey)));
    expect(error.code).toBe('invalid');
    expect(error.message).toMatch(/Ed25519 or ECDSA P-256/);
  });

  it('refuses a P-384 key (400)', () => {
    const p384 = generateKeyPairSync('ec', { namedCurve: 'P-384' });
    expect(errorOf(() => parseSigningKey(spkiPem(p384.publicKey))).code).toBe('invalid');
  });

  it.each([
    ['an empty string', ''],
    ['plain text', 'not a key'],
    ['a PEM header around garbage', '-----BEGIN PUBLIC KEY-----\nbm90IGEga2V5\n-----END PUBLIC KEY-----\n'],
    ['an oversized input', `-----BEGIN PUBLIC KEY-----\n${'A'.repeat(5000)}\n-----END PUBLIC KEY-----\n`],
    ['a raw base64 key without PEM armour', ed.publicKey.export({ type: 'spki', format: 'der' }).toString('base64')],
  ])('refuses %s (400)', (_label, pem) => {
    expect(errorOf(() => parseSigningKey(pem)).code).toBe('invalid');
  });
});

describe('verifyArchiveSignature', () => {
  const edKey = parseSigningKey(spkiPem(ed.publicKey));
  const ecKey = parseSigningKey(spkiPem(p256.publicKey));
  const edSignature = sign(null, archive, ed.privateKey).toString('base64');
  const ecDer = sign('sha256', archive, p256.privateKey).toString('base64');
  const ecRaw = sign('sha256', archive, { key: p256.privateKey, dsaEncoding: 'ieee-p1363' }).toString('base64');

  it('accepts an Ed25519 signature of the archive', () => {
    expect(verifyArchiveSignature(edKey, archive, edSignature)).toBe(true);
    expect(verifyArchiveSignature(edKey, archive, `  ${edSignature}\n`)).toBe(true);
  });

  it('accepts an ECDSA signature in DER', () => {
    expect(Buffer.from(ecDer, 'base64').length).not.toBe(64);
    expect(verifyArchiveSignature(ecKey, archive, ecDer)).toBe(true);
  });

  it('accepts an ECDSA signature in raw 64-byte r||s', () => {
    expect(Buffer.from(ecRaw, 'base64')).toHaveLength(64);
    expect(verifyArchiveSignature(ecKey, archive, ecRaw)).toBe(true);
  });

  it('refuses signatures over tampered data', () => {
    const tampered = Buffer.from(archive);
    tampered[tampered.length - 1] ^= 1;
    expect(verifyArchiveSignature(edKey, tampered, edSignature)).toBe(false);
    expect(verifyArchiveSignature(ecKey, tampered, ecDer)).toBe(false);
    expect(verifyArchiveSignature(ecKey, tampered, ecRaw)).toBe(false);
  });

  it.each([
    ['not base64', 'not base64!'],
    ['empty', ''],
    ['too short', 'AAAA'],
    ['too long', 'A'.repeat(2000)],
    ['padding in the middle', 'AA==AA=='],
  ])('returns false for a garbage signature: %s', (_label, signature) => {
    expect(verifyArchiveSignature(edKey, archive, signature)).toBe(false);
    expect(verifyArchiveSignature(ecKey, archive, signature)).toBe(false);
  });

  it('returns false for a signature by another key', () => {
    const otherEd = generateKeyPairSync('ed25519');
    const otherEc = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    expect(verifyArchiveSignature(edKey, archive, sign(null, archive, otherEd.privateKey).toString('base64'))).toBe(false);
    expect(verifyArchiveSignature(ecKey, archive, sign('sha256', archive, otherEc.privateKey).toString('base64'))).toBe(false);
  });

  it('returns false when the signature algorithm does not match the key', () => {
    expect(verifyArchiveSignature(ecKey, archive, edSignature)).toBe(false);
    expect(verifyArchiveSignature(edKey, archive, ecDer)).toBe(false);
  });
});
