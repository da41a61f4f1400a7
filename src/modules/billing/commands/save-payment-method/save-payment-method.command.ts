import { Command } from '@nestjs/cqrs';
import { WalletOwner } from '../../../wallet/domain/wallet-owner';

/** A setup intent succeeded: keep the card's displayable details for the owner. */
export class SavePaymentMethodCommand extends Command<void> {
  constructor(
    readonly owner: WalletOwner,
    readonly setupIntentId: string,
    readonly paymentMethodId: string,
  ) {
    super();
  }
}
