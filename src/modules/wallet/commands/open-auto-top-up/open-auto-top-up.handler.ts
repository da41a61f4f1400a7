import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { EventStore } from '../../../../event-store/event-store';
import { decideOnStream } from '../../../../event-store/fold-stream';
import { Clock } from '../../../../platform/clock/clock';
import { topUpDecider, TopUpState, topUpStreamId } from '../../domain/top-up.decider';
import { OpenAutoTopUpCommand } from './open-auto-top-up.command';

@CommandHandler(OpenAutoTopUpCommand)
export class OpenAutoTopUpHandler implements ICommandHandler<OpenAutoTopUpCommand, TopUpState> {
  constructor(
    private readonly store: EventStore,
    private readonly clock: Clock,
  ) {}

  async execute({ topUpId, owner, amountCents }: OpenAutoTopUpCommand): Promise<TopUpState> {
    const { state } = await decideOnStream(this.store, topUpStreamId(topUpId), topUpDecider, {
      type: 'RequestTopUp',
      topUpId,
      owner,
      source: 'auto_top_up',
      amountCents,
      paymentIntentId: null,
      now: this.clock.now(),
    });
    return state;
  }
}
