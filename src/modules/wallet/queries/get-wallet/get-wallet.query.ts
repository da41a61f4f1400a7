import { Query } from '@nestjs/cqrs';
import { WalletOwner } from '../../domain/wallet-owner';

export interface WalletView {
  balanceCents: number;
  autoTopUpEnabled: boolean;
  autoTopUpThresholdCents: number;
  autoTopUpAmountCents: number;
}

export class GetWalletQuery extends Query<WalletView> {
  constructor(readonly owner: WalletOwner) {
    super();
  }
}
