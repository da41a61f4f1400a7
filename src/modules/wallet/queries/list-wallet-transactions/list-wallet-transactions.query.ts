import { Query } from '@nestjs/cqrs';
import { TransactionType } from '../../read-models/wallets.projection';
import { WalletOwner } from '../../domain/wallet-owner';

export interface WalletTransactionView {
  id: string;
  type: TransactionType;
  /** Signed: deductions are negative. */
  amountCents: number;
  balanceAfterCents: number;
  description: string;
  createdAt: string;
}

export interface WalletTransactionPage {
  transactions: WalletTransactionView[];
  nextCursor: string | null;
  hasMore: boolean;
}

/** Newest first. */
export class ListWalletTransactionsQuery extends Query<WalletTransactionPage> {
  constructor(
    readonly owner: WalletOwner,
    readonly limit: number,
    readonly cursor: string | undefined,
  ) {
    super();
  }
}
