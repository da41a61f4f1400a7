import { createHash, createPublicKey, KeyObject, verify } from 'node:crypto';
import { DomainError } from '../../../platform/errors/domain-error';

export type SigningAlgorithm = 'ed25519' | 'ecdsa-p256';

export interface ParsedSigningKey {
  key: KeyObject;
  algorithm: SigningAlgorithm;
  /** Lowercase hex SHA-256 of the DER-encoded SubjectPublicKeyInfo. */
  fingerprint: string;
  /** The key re-exported as SPKI PEM, so stored keys have one canonical form. */
  publicKeyPem: string;
}

const MAX_PEM_LENGTH = 4096;

/** Parses an Ed25519 or ECDSA P-256 public key in PEM; anything else is a 400. */
export function parseSigningKey(input: string): ParsedSigningKey {
  // Keys pasted from documents often carry indentation, which OpenSSL refuses.
  const pem = input
    .split(/\r?\n/)
    .map((line) => line.trim())
    .join('\n')
    .trim();
  if (pem.length > MAX_PEM_LENGTH || !pem.includes('-----BEGIN PUBLIC KEY-----')) {
    throw new DomainError('invalid', 'publicKey must be a PEM "PUBLIC KEY" (SubjectPublicKeyInfo)');
  }
  let key: KeyObject;
  try {
    key = createPublicKey({ key: pem, format: 'pem' });
  } catch {
    throw new DomainError('invalid', 'publicKey could not be parsed as a PEM public key');
  }
  const algorithm = algorithmOf(key);
  if (!algorithm) throw new DomainError('invalid', 'publicKey must be an Ed25519 or ECDSA P-256 key');
  const der = key.export({ type: 'spki', format: 'der' });
  return {
    key,
    algorithm,
    fingerprint: createHash('sha256').update(der).digest('hex'),
    publicKeyPem: key.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

function algorithmOf(key: KeyObject): SigningAlgorithm | null {
  if (key.asymmetricKeyType === 'ed25519') return 'ed25519';
  if (key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1') return 'ecdsa-p256';
  return null;
}

/**
 * Checks a detached signature over the archive bytes. The signature is base64:
 * Ed25519's 64 bytes, or ECDSA over SHA-256 in DER or raw r||s form.
 */
export function verifyArchiveSignature(parsed: ParsedSigningKey, archive: Buffer, signatureBase64: string): boolean {
  const text = signatureBase64.trim();
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(text) || text.length > 1024) return false;
  const signature = Buffer.from(text, 'base64');
  try {
    if (parsed.algorithm === 'ed25519') return verify(null, archive, parsed.key, signature);
    const dsaEncoding = signature.length === 64 ? 'ieee-p1363' : 'der';
    return verify('sha256', archive, { key: parsed.key, dsaEncoding }, signature);
  } catch {
    return false;
  }
}
