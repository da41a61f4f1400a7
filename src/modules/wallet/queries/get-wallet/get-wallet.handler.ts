import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { DEFAULT_AUTO_TOP_UP } from '../../domain/wallet.decider';
import { GetWalletQuery, WalletView } from './get-wallet.query';

@QueryHandler(GetWalletQuery)
export class GetWalletHandler implements IQueryHandler<GetWalletQuery, WalletView> {
  constructor(private readonly dataSource: DataSource) {}

  async execute({ owner }: GetWalletQuery): Promise<WalletView> {
    const [row] = await this.dataSource.query(
      `SELECT balance_cents, auto_top_up_enabled, auto_top_up_threshold_cents, auto_top_up_amount_cents
         FROM wallets WHERE owner_kind = $1 AND owner_id = $2`,
      [owner.kind, owner.id],
    );
    if (!row)
      return {
        balanceCents: 0,
        autoTopUpEnabled: DEFAULT_AUTO_TOP_UP.enabled,
        autoTopUpThresholdCents: DEFAULT_AUTO_TOP_UP.thresholdCents,
        autoTopUpAmountCents: DEFAULT_AUTO_TOP_UP.amountCents,
      };
    return {
      balanceCents: Number(row.balance_cents),
      autoTopUpEnabled: row.auto_top_up_enabled,
      autoTopUpThresholdCents: Number(row.auto_top_up_threshold_cents),
      autoTopUpAmountCents: Number(row.auto_top_up_amount_cents),
    };
  }
}
