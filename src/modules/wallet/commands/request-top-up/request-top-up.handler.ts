import { randomUUID } from 'node:crypto';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { EventStore } from '../../../../event-store/event-store';
import { Clock } from '../../../../platform/clock/clock';
import { IdempotentRequest } from '../../../../platform/http/idempotency';
import { PaymentGateway } from '../../../billing/domain/payment-gateway';
import { topUpDecider, topUpStreamId } from '../../domain/top-up.decider';
import { walletStreamId } from '../../domain/wallet-owner';
import { RequestedTopUp, RequestTopUpCommand } from './request-top-up.command';

@CommandHandler(RequestTopUpCommand)
export class RequestTopUpHandler implements ICommandHandler<RequestTopUpCommand, RequestedTopUp> {
  constructor(
    private readonly store: EventStore,
    private readonly gateway: PaymentGateway,
    private readonly clock: Clock,
  ) {}

  async execute({ owner, amountCents }: RequestTopUpCommand): Promise<RequestedTopUp> {
    // With an Idempotency-Key the top-up id derives from it, so the processor's idempotency returns the same intent.
    const topUpId = IdempotentRequest.derivedId('TopUp') ?? randomUUID();
    const intent = await this.gateway.createPaymentIntent({
      amountCents,
      metadata: { topUpId, walletId: walletStreamId(owner), purpose: 'top_up' },
      description: 'Wallet top-up',
      idempotencyKey: topUpId,
    });
    const events = topUpDecider.decide(
      {
        type: 'RequestTopUp',
        topUpId,
        owner,
        source: 'top_up',
        amountCents,
        paymentIntentId: intent.id,
        now: this.clock.now(),
      },
      topUpDecider.initialState,
    );
    const answer: RequestedTopUp = { clientSecret: intent.clientSecret };
    await this.store.appendAtomically([
      { streamId: topUpStreamId(topUpId), events, expected: 'no_stream' },
      ...(await IdempotentRequest.recordAnswer(answer)),
    ]);
    return answer;
  }
}
