import { Query } from '@nestjs/cqrs';
import { WalletOwner } from '../../../wallet/domain/wallet-owner';
import { CardPaymentMethod } from '../../domain/payment-gateway';

export interface PaymentMethodsView {
  hasStripeCustomer: boolean;
  /** Newest first. */
  paymentMethods: CardPaymentMethod[];
}

export class GetPaymentMethodsQuery extends Query<PaymentMethodsView> {
  constructor(readonly owner: WalletOwner) {
    super();
  }
}
