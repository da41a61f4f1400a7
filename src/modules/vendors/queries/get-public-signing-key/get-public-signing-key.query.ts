import { Query } from '@nestjs/cqrs';

export interface PublicSigningKey {
  vendorSlug: string;
  activeKey: { publicKey: string; fingerprint: string } | null;
}

/** A vendor's active release-signing key by the vendor's slug, for clients verifying downloads; 404 for no such vendor. */
export class GetPublicSigningKeyQuery extends Query<PublicSigningKey> {
  constructor(readonly vendorSlug: string) {
    super();
  }
}
