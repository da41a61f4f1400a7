import { Query } from '@nestjs/cqrs';

export interface PublishedRelease {
  id: string;
  version: string;
  archiveSha256: string;
  publishedAt: string;
  scanStatus: string;
  /** Base64 detached signature of the archive, or null for an unsigned release. */
  signature: string | null;
  /** SHA-256 fingerprint of the vendor key that signed it, or null. */
  signingKeyFingerprint: string | null;
}

/** A listing's published releases, highest version first; the listing's visibility rules apply. */
export class ListReleasesQuery extends Query<PublishedRelease[]> {
  constructor(
    readonly vendorSlug: string,
    readonly slug: string,
    readonly viewerId: string | null,
  ) {
    super();
  }
}
