import { Command } from '@nestjs/cqrs';
import { DebitReason } from '../../domain/wallet.decider';
import { WalletOwner } from '../../domain/wallet-owner';

export interface WalletDebit {
  balanceAfterCents: number;
  /** True when this debit id had been applied before: nothing moved this time. */
  alreadyApplied: boolean;
}

/**
 * Takes money from a wallet, never below zero (402 `insufficient_balance`).
 * The debit id is the cause's (a purchase, a usage record): the same id
 * debits once however often it is sent.
 */
export class DebitWalletCommand extends Command<WalletDebit> {
  constructor(
    readonly owner: WalletOwner,
    readonly debitId: string,
    readonly amountCents: number,
    readonly reason: DebitReason,
    readonly description: string,
    readonly reference: Record<string, string> = {},
  ) {
    super();
  }
}
