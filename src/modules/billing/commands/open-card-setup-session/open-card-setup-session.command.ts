import { Command } from '@nestjs/cqrs';
import { WalletOwner } from '../../../wallet/domain/wallet-owner';

/** The web checkout page a card setup comes back to. */
export interface CheckoutReturn {
  listingId: string;
  releaseId?: string;
  /** The approved purchase the checkout completes. */
  approvalId?: string;
}

/** Sends the owner to the processor's hosted card form, to save a card and come back to checkout. */
export class OpenCardSetupSessionCommand extends Command<{ url: string }> {
  constructor(
    readonly owner: WalletOwner,
    readonly checkout: CheckoutReturn,
  ) {
    super();
  }
}
