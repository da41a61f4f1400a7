import { Command } from '@nestjs/cqrs';

/** Revokes one of the vendor's keys, active or retired; revoking twice changes nothing. */
export class RevokeSigningKeyCommand extends Command<void> {
  constructor(
    readonly vendorId: string,
    readonly fingerprint: string,
  ) {
    super();
  }
}
