import { CommandHandler, ICommandHandler, QueryBus } from '@nestjs/cqrs';
import { AppConfig } from '../../../../config/app-config';
import { InjectConfig } from '../../../../config/config.module';
import { GetVendorProfileQuery } from '../../../vendors/queries/get-vendor-profile/get-vendor-profile.query';
import { PaymentGateway } from '../../domain/payment-gateway';
import { ConnectedAccounts } from '../connected-accounts';
import { StartSellerOnboardingCommand } from './start-seller-onboarding.command';

/** Where the processor sends the vendor back to, on the web app. */
export const onboardingUrls = (webUrl: string) => ({
  /** The link expired or was used: the page asks for a new one (POST /v1/vendor/onboard again). */
  refreshUrl: `${webUrl}/vendor/onboarding/refresh`,
  returnUrl: `${webUrl}/vendor/onboarding/return`,
});

@CommandHandler(StartSellerOnboardingCommand)
export class StartSellerOnboardingHandler implements ICommandHandler<StartSellerOnboardingCommand, { url: string }> {
  constructor(
    private readonly queries: QueryBus,
    private readonly accounts: ConnectedAccounts,
    private readonly gateway: PaymentGateway,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  async execute({ vendorId }: StartSellerOnboardingCommand): Promise<{ url: string }> {
    // 403 naming the missing profile, as every vendor endpoint answers without one.
    await this.queries.execute(new GetVendorProfileQuery(vendorId));
    const accountId = await this.accounts.ensure(vendorId);
    // Account links are single-use and short-lived: each call asks for a new one, also once onboarding is complete.
    return this.gateway.createAccountLink({ accountId, ...onboardingUrls(this.config.webUrl) });
  }
}
