import { Query } from '@nestjs/cqrs';

/** The fingerprint of the key the archive was signed with. */
export interface VerifiedSignature {
  fingerprint: string;
}

/**
 * Checks a detached archive signature against the vendor's active key; a bad
 * signature is a 400. For the catalog's release upload.
 */
export class VerifyArchiveSignatureQuery extends Query<VerifiedSignature> {
  constructor(
    readonly vendorId: string,
    readonly archive: Buffer,
    /** Base64 detached signature of the archive bytes. */
    readonly signature: string,
  ) {
    super();
  }
}
