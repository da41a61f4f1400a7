import { Command } from '@nestjs/cqrs';
import { WalletOwner } from '../../../wallet/domain/wallet-owner';

/** A processor-hosted page where the owner manages saved cards and invoices. */
export class OpenPortalSessionCommand extends Command<{ url: string }> {
  constructor(readonly owner: WalletOwner) {
    super();
  }
}
