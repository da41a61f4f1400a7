import { createHash, createPublicKey, KeyObject, verify } from 'node:crypto';
import { CliError } from '../errors';

export const sha256Hex = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

export interface SignatureCheck {
  signed: boolean;
  fingerprint: string | null;
}

export interface ReleaseSignature {
  signature: string | null;
  signingKeyFingerprint: string | null;
}

export interface VendorKey {
  publicKey: string;
  fingerprint: string;
}

/**
 * The archive must be signed by the vendor's active key: the key's own
 * fingerprint (computed here, not trusted) must be the one the release names,
 * and the signature must verify over the exact bytes downloaded.
 */
export function checkSignature(
  archive: Buffer,
  release: ReleaseSignature,
  activeKey: VendorKey | null,
  allowUnsigned: boolean,
): SignatureCheck {
  if (!release.signature) {
    if (allowUnsigned) return { signed: false, fingerprint: null };
    // Releases uploaded before the server kept signatures name their key but carry nothing to check.
    const why = release.signingKeyFingerprint
      ? `its signature (key ${release.signingKeyFingerprint}) is not published, so it cannot be verified`
      : 'the release is not signed';
    throw new CliError(`Refusing to install: ${why} (pass --allow-unsigned to install it anyway)`);
  }
  if (!activeKey) throw new CliError('Refusing to install: the release is signed but the vendor has no active signing key');
  let key: KeyObject;
  try {
    key = createPublicKey({ key: activeKey.publicKey, format: 'pem' });
  } catch {
    throw new CliError("Refusing to install: the vendor's signing key cannot be read");
  }
  const fingerprint = createHash('sha256')
    .update(key.export({ type: 'spki', format: 'der' }))
    .digest('hex');
  if (release.signingKeyFingerprint && release.signingKeyFingerprint !== fingerprint) {
    throw new CliError(
      `Refusing to install: the release was signed with key ${release.signingKeyFingerprint}, not the vendor's active key ${fingerprint}`,
    );
  }
  if (!verifies(key, archive, release.signature)) {
    throw new CliError(`Refusing to install: the signature does not verify against the vendor's active key ${fingerprint}`);
  }
  return { signed: true, fingerprint };
}

/** Ed25519, or ECDSA P-256 over SHA-256 in DER or raw r||s form (what the server accepts on upload). */
function verifies(key: KeyObject, archive: Buffer, signatureBase64: string): boolean {
  const signature = Buffer.from(signatureBase64, 'base64');
  try {
    if (key.asymmetricKeyType === 'ed25519') return verify(null, archive, key, signature);
    if (key.asymmetricKeyType === 'ec') {
      return verify('sha256', archive, { key, dsaEncoding: signature.length === 64 ? 'ieee-p1363' : 'der' }, signature);
    }
    return false;
  } catch {
    return false;
  }
}
