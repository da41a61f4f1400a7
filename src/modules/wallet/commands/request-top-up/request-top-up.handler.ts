import { randomUUID } from 'node:crypto';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { EventStore } from '../../../../event-store/event-store';
import { decideOnStream, retryOnConflict } from '../../../../event-store/fold-stream';
import { Clock } from '../../../../platform/clock/clock';
import { IdempotentRequest } from '../../../../platform/http/idempotency';
import { PaymentGateway } from '../../../billing/domain/payment-gateway';
import { topUpDecider, topUpStreamId } from '../../domain/top-up.decider';
import { walletStreamId } from '../../domain/wallet-owner';
import { WalletLedger } from '../wallet-ledger';
import { RequestedTopUp, RequestTopUpCommand } from './request-top-up.command';

@CommandHandler(RequestTopUpCommand)
export class RequestTopUpHandler implements ICommandHandler<RequestTopUpCommand, RequestedTopUp> {
  constructor(
    private readonly store: EventStore,
    private readonly gateway: PaymentGateway,
    private readonly ledger: WalletLedger,
    private readonly clock: Clock,
  ) {}

  /**
   * Records the top-up before the processor hears of it, so its webhook (the
   * sandbox settles by itself within a second) always finds our record, then
   * records the intent with the answer. The processor's idempotency key is the
   * top-up id: with an Idempotency-Key it derives from that key, so a retry
   * gets the same intent.
   */
  async execute({ owner, amountCents }: RequestTopUpCommand): Promise<RequestedTopUp> {
    const topUpId = IdempotentRequest.derivedId('TopUp') ?? randomUUID();
    const streamId = topUpStreamId(topUpId);
    await decideOnStream(this.store, streamId, topUpDecider, {
      type: 'RequestTopUp',
      topUpId,
      owner,
      source: 'top_up',
      amountCents,
      paymentIntentId: null,
      now: this.clock.now(),
    });
    const intent = await this.gateway.createPaymentIntent({
      amountCents,
      metadata: { topUpId, walletId: walletStreamId(owner), purpose: 'top_up' },
      description: 'Wallet top-up',
      idempotencyKey: topUpId,
    });
    const answer: RequestedTopUp = { clientSecret: intent.clientSecret };
    await retryOnConflict(async () => {
      const { state, revision } = await this.ledger.foldTopUp(topUpId);
      const charged = topUpDecider.decide({ type: 'RecordCharge', paymentIntentId: intent.id, now: this.clock.now() }, state);
      const appends = charged.length > 0 ? [{ streamId, events: charged, expected: revision }] : [];
      const all = [...appends, ...(await IdempotentRequest.recordAnswer(answer))];
      if (all.length > 0) await this.store.appendAtomically(all);
    });
    return answer;
  }
}
