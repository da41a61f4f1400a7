import { Command } from '@nestjs/cqrs';
import { AutoTopUpSettings } from '../../domain/wallet.decider';
import { WalletOwner } from '../../domain/wallet-owner';

/** Fields left undefined keep their values. */
export class ConfigureAutoTopUpCommand extends Command<AutoTopUpSettings> {
  constructor(
    readonly owner: WalletOwner,
    readonly changes: Partial<AutoTopUpSettings>,
  ) {
    super();
  }
}
