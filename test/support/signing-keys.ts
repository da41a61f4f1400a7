import { createHash, generateKeyPairSync, KeyObject, sign } from 'node:crypto';

/** A fresh key pair with the PEM and fingerprint the vendor key endpoints expect. */
export function keyPair(kind: 'ed25519' | 'p256' | 'rsa' = 'ed25519') {
  const pair =
    kind === 'ed25519'
      ? generateKeyPairSync('ed25519')
      : kind === 'p256'
        ? generateKeyPairSync('ec', { namedCurve: 'P-256' })
        : generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    ...pair,
    publicKeyPem: pair.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    fingerprint: fingerprint(pair.publicKey),
    /** A base64 detached signature of `data`. */
    sign: (data: Buffer) => sign(kind === 'ed25519' ? null : 'sha256', data, pair.privateKey).toString('base64'),
  };
}

const fingerprint = (key: KeyObject) =>
  createHash('sha256')
    .update(key.export({ type: 'spki', format: 'der' }))
    .digest('hex');
