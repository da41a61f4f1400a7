import { Command } from '@nestjs/cqrs';

/** A single-use sign-in to the processor's dashboard of the vendor's onboarded account. */
export class OpenSellerDashboardCommand extends Command<{ url: string }> {
  constructor(readonly vendorId: string) {
    super();
  }
}
