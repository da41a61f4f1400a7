import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { EventStore } from '../../../../event-store/event-store';
import { decideOnStream } from '../../../../event-store/fold-stream';
import { Clock } from '../../../../platform/clock/clock';
import { connectedAccountDecider, connectedAccountStreamId } from '../../domain/connected-account.decider';
import { RecordAccountStatusCommand } from './record-account-status.command';

/** Idempotent: the event's id derives from the processor's event, and an older report than the one applied is ignored. */
@CommandHandler(RecordAccountStatusCommand)
export class RecordAccountStatusHandler implements ICommandHandler<RecordAccountStatusCommand, void> {
  constructor(
    private readonly store: EventStore,
    private readonly clock: Clock,
  ) {}

  async execute(command: RecordAccountStatusCommand): Promise<void> {
    await decideOnStream(this.store, connectedAccountStreamId(command.vendorId), connectedAccountDecider, {
      type: 'RecordAccountStatus',
      vendorId: command.vendorId,
      accountId: command.accountId,
      chargesEnabled: command.chargesEnabled,
      detailsSubmitted: command.detailsSubmitted,
      processorEventId: command.processorEventId,
      reportedAt: new Date(command.reportedAt),
      now: this.clock.now(),
    });
  }
}
