import { Command } from '@nestjs/cqrs';

/** The vendor's connected account (created on first use) and a fresh link to its onboarding at the processor. */
export class StartSellerOnboardingCommand extends Command<{ url: string }> {
  constructor(readonly vendorId: string) {
    super();
  }
}
