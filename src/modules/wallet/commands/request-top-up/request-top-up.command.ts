import { Command } from '@nestjs/cqrs';
import { WalletOwner } from '../../domain/wallet-owner';

export interface RequestedTopUp {
  clientSecret: string;
}

/** Opens a payment intent for the amount, tagged with the wallet. Nothing is credited until the processor says it was paid. */
export class RequestTopUpCommand extends Command<RequestedTopUp> {
  constructor(
    readonly owner: WalletOwner,
    readonly amountCents: number,
  ) {
    super();
  }
}
