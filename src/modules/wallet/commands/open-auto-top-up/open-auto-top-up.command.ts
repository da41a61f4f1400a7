import { Command } from '@nestjs/cqrs';
import { TopUpState } from '../../domain/top-up.decider';
import { WalletOwner } from '../../domain/wallet-owner';

/** Records an auto top-up before its charge is made, so the processor's webhook always finds it; answers its state. */
export class OpenAutoTopUpCommand extends Command<TopUpState> {
  constructor(
    readonly topUpId: string,
    readonly owner: WalletOwner,
    readonly amountCents: number,
  ) {
    super();
  }
}
