import { Injectable } from '@nestjs/common';
import { EventStore } from '../../../event-store/event-store';
import { expectedAt, foldStream, retryOnConflict } from '../../../event-store/fold-stream';
import { Clock } from '../../../platform/clock/clock';
import { derivedId } from '../../../platform/ids';
import {
  connectedAccountDecider,
  ConnectedAccountEvent,
  connectedAccountStreamId,
  ConnectedAccountState,
} from '../domain/connected-account.decider';
import { PaymentGateway } from '../domain/payment-gateway';

/**
 * A vendor's connected account, created on first use. The processor call's
 * idempotency key derives from the vendor, so two first uses at once get one
 * account there, and the `no_stream` append records it once here: the loser
 * of that race reads the winner's account and uses it.
 */
@Injectable()
export class ConnectedAccounts {
  constructor(
    private readonly store: EventStore,
    private readonly gateway: PaymentGateway,
    private readonly clock: Clock,
  ) {}

  fold(vendorId: string): Promise<{ state: ConnectedAccountState; revision: number }> {
    return foldStream<ConnectedAccountState, ConnectedAccountEvent>(
      this.store,
      connectedAccountStreamId(vendorId),
      connectedAccountDecider.evolve,
      connectedAccountDecider.initialState,
    );
  }

  /** The vendor's account id, created at the processor and recorded when it has none. */
  async ensure(vendorId: string): Promise<string> {
    return retryOnConflict(async () => {
      const { state, revision } = await this.fold(vendorId);
      if (state.accountId) return state.accountId;
      const { accountId } = await this.gateway.createConnectedAccount({
        vendorId,
        idempotencyKey: derivedId('ConnectedAccount', vendorId),
      });
      const events = connectedAccountDecider.decide({ type: 'RecordAccount', vendorId, accountId, now: this.clock.now() }, state);
      // `no_stream` but for a report of the account that arrived first (then at the revision read).
      await this.store.append(connectedAccountStreamId(vendorId), events, expectedAt(revision));
      return accountId;
    });
  }
}
