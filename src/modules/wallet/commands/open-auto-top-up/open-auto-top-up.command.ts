import { Command } from '@nestjs/cqrs';
import { WalletOwner } from '../../domain/wallet-owner';

/** Records an auto top-up before its charge is made, so the processor's webhook always finds it. */
export class OpenAutoTopUpCommand extends Command<void> {
  constructor(
    readonly topUpId: string,
    readonly owner: WalletOwner,
    readonly amountCents: number,
  ) {
    super();
  }
}
