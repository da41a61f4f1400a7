import { Command } from '@nestjs/cqrs';

/**
 * Re-checks one vendor's proofs (the schedule's work): a removed TXT record or
 * a lost admin role lapses them; a lookup that fails changes nothing.
 */
export class RecheckVerificationCommand extends Command<void> {
  constructor(readonly vendorId: string) {
    super();
  }
}
