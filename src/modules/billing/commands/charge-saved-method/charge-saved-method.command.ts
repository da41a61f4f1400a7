import { Command } from '@nestjs/cqrs';
import { WalletOwner } from '../../../wallet/domain/wallet-owner';
import { PaymentIntent } from '../../domain/payment-gateway';

/**
 * Charges the owner's newest saved card off-session. A missing card or a
 * decline answers `failed` (with the reason) rather than throwing: the caller
 * records it. The idempotency key makes a retried charge the same charge.
 */
export class ChargeSavedMethodCommand extends Command<PaymentIntent> {
  constructor(
    readonly owner: WalletOwner,
    readonly amountCents: number,
    readonly metadata: Record<string, string>,
    readonly description: string,
    readonly idempotencyKey: string,
  ) {
    super();
  }
}
