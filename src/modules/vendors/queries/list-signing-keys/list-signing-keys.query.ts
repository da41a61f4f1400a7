import { Query } from '@nestjs/cqrs';

export interface SigningKeyList {
  activeKey: { publicKey: string; fingerprint: string } | null;
  /** Every register, rotate and revoke, newest first. */
  log: { action: 'register' | 'rotate' | 'revoke'; fingerprint: string; createdAt: string }[];
}

/** The vendor's active signing key and the log of key actions; 403 without a vendor profile. */
export class ListSigningKeysQuery extends Query<SigningKeyList> {
  constructor(readonly vendorId: string) {
    super();
  }
}
