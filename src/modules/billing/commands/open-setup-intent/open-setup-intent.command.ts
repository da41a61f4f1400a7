import { Command } from '@nestjs/cqrs';
import { WalletOwner } from '../../../wallet/domain/wallet-owner';

export interface OpenedSetupIntent {
  clientSecret: string;
}

/** Starts saving a card for the owner's off-session charges (auto top-up). */
export class OpenSetupIntentCommand extends Command<OpenedSetupIntent> {
  constructor(readonly owner: WalletOwner) {
    super();
  }
}
