import { Query } from '@nestjs/cqrs';

export interface SellerAccountView {
  /** The processor's connected account (`acct_...`), null before onboarding was ever started. */
  accountId: string | null;
  /** The processor reported charges enabled and details submitted. */
  onboardingComplete: boolean;
}

/** Where a vendor stands with payouts: has it a connected account, and has it finished onboarding? */
export class GetSellerAccountQuery extends Query<SellerAccountView> {
  constructor(readonly vendorId: string) {
    super();
  }
}
