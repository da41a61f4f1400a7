import { CommandBus, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { EventStore } from '../../../../event-store/event-store';
import { decideOnStream } from '../../../../event-store/fold-stream';
import { Clock } from '../../../../platform/clock/clock';
import { topUpDecider, topUpStreamId } from '../../domain/top-up.decider';
import { FailTopUpCommand } from '../fail-top-up/fail-top-up.command';
import { RecordTopUpChargeCommand } from './record-top-up-charge.command';

@CommandHandler(RecordTopUpChargeCommand)
export class RecordTopUpChargeHandler implements ICommandHandler<RecordTopUpChargeCommand, void> {
  constructor(
    private readonly store: EventStore,
    private readonly commands: CommandBus,
    private readonly clock: Clock,
  ) {}

  async execute({ topUpId, intent }: RecordTopUpChargeCommand): Promise<void> {
    if (intent.status === 'failed') {
      const reason = intent.failureMessage ?? 'The charge was declined';
      await this.commands.execute(new FailTopUpCommand(topUpId, intent.id || null, null, reason));
      return;
    }
    await decideOnStream(this.store, topUpStreamId(topUpId), topUpDecider, {
      type: 'RecordCharge',
      paymentIntentId: intent.id,
      now: this.clock.now(),
    });
  }
}
