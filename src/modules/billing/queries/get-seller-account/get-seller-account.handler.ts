import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { GetSellerAccountQuery, SellerAccountView } from './get-seller-account.query';

@QueryHandler(GetSellerAccountQuery)
export class GetSellerAccountHandler implements IQueryHandler<GetSellerAccountQuery, SellerAccountView> {
  constructor(private readonly dataSource: DataSource) {}

  async execute({ vendorId }: GetSellerAccountQuery): Promise<SellerAccountView> {
    const [row] = await this.dataSource.query(
      'SELECT account_id, onboarding_complete FROM billing_connected_accounts WHERE vendor_id = $1',
      [vendorId],
    );
    return { accountId: row?.account_id ?? null, onboardingComplete: row?.onboarding_complete ?? false };
  }
}
