import { CommandHandler, ICommandHandler, QueryBus } from '@nestjs/cqrs';
import { DomainError } from '../../../../platform/errors/domain-error';
import { GetVendorProfileQuery } from '../../../vendors/queries/get-vendor-profile/get-vendor-profile.query';
import { isOnboardingComplete } from '../../domain/connected-account.decider';
import { PaymentGateway } from '../../domain/payment-gateway';
import { ConnectedAccounts } from '../connected-accounts';
import { OpenSellerDashboardCommand } from './open-seller-dashboard.command';

@CommandHandler(OpenSellerDashboardCommand)
export class OpenSellerDashboardHandler implements ICommandHandler<OpenSellerDashboardCommand, { url: string }> {
  constructor(
    private readonly queries: QueryBus,
    private readonly accounts: ConnectedAccounts,
    private readonly gateway: PaymentGateway,
  ) {}

  async execute({ vendorId }: OpenSellerDashboardCommand): Promise<{ url: string }> {
    await this.queries.execute(new GetVendorProfileQuery(vendorId));
    const { state } = await this.accounts.fold(vendorId);
    if (!state.accountId)
      throw new DomainError('unprocessable', 'You have no payout account yet: start onboarding with POST /v1/vendor/onboard');
    // The processor has no dashboard for an account before onboarding is complete.
    if (!isOnboardingComplete(state))
      throw new DomainError(
        'unprocessable',
        'Payout onboarding is not complete yet: finish it at the link POST /v1/vendor/onboard answers',
      );
    return this.gateway.createLoginLink(state.accountId);
  }
}
