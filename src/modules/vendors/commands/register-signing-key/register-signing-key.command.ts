import { Command } from '@nestjs/cqrs';

export interface RegisteredSigningKey {
  /** The first key is a `register`, a later one a `rotate`. */
  action: 'register' | 'rotate';
  fingerprint: string;
}

/** Registers a release-signing key; an active one is rotated out and no longer verifies uploads. */
export class RegisterSigningKeyCommand extends Command<RegisteredSigningKey> {
  constructor(
    readonly vendorId: string,
    /** PEM, as the vendor sent it. */
    readonly publicKey: string,
    /** The fingerprint the vendor claims; it must be the key's. */
    readonly fingerprint: string,
  ) {
    super();
  }
}
