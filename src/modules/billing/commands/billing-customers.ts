import { Injectable } from '@nestjs/common';
import { EventStore } from '../../../event-store/event-store';
import { foldStream, retryOnConflict } from '../../../event-store/fold-stream';
import { Clock } from '../../../platform/clock/clock';
import { derivedId } from '../../../platform/ids';
import { WalletOwner } from '../../wallet/domain/wallet-owner';
import {
  billingCustomerDecider,
  BillingCustomerEvent,
  billingCustomerStreamId,
  BillingCustomerState,
} from '../domain/billing-customer.decider';
import { PaymentGateway } from '../domain/payment-gateway';

/**
 * The owner's processor customer, created on first use. The processor call's
 * idempotency key derives from the owner, so two first uses at once get one
 * customer there, and the `no_stream` append records it once here.
 */
@Injectable()
export class BillingCustomers {
  constructor(
    private readonly store: EventStore,
    private readonly gateway: PaymentGateway,
    private readonly clock: Clock,
  ) {}

  async fold(owner: WalletOwner): Promise<{ state: BillingCustomerState; revision: number }> {
    return foldStream<BillingCustomerState, BillingCustomerEvent>(
      this.store,
      billingCustomerStreamId(owner.kind, owner.id),
      billingCustomerDecider.evolve,
      billingCustomerDecider.initialState,
    );
  }

  /** The customer id, and the customer stream's revision after recording it. */
  async ensure(owner: WalletOwner): Promise<{ customerId: string; revision: number }> {
    return retryOnConflict(async () => {
      const { state, revision } = await this.fold(owner);
      if (state.customerId) return { customerId: state.customerId, revision };
      const { customerId } = await this.gateway.createCustomer({
        ownerId: `${owner.kind}-${owner.id}`,
        idempotencyKey: derivedId('ProcessorCustomer', owner.kind, owner.id),
      });
      const events = billingCustomerDecider.decide(
        { type: 'RecordCustomer', ownerKind: owner.kind, ownerId: owner.id, customerId, now: this.clock.now() },
        state,
      );
      const result = await this.store.append(billingCustomerStreamId(owner.kind, owner.id), events, 'no_stream');
      return { customerId, revision: result.revision };
    });
  }
}
