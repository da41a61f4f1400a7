import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { EventStore } from '../../../../event-store/event-store';
import { decideOnStream } from '../../../../event-store/fold-stream';
import { SnapshotStore } from '../../../../event-store/snapshot-store';
import { Clock } from '../../../../platform/clock/clock';
import { policyStreamId, spendPolicyDecider } from '../../domain/spend-policy.decider';
import { spentInMonthOf, spentOnDayOf } from '../../domain/spend-window';
import { RecordedPolicySpend, RecordPolicySpendCommand } from './record-policy-spend.command';

@CommandHandler(RecordPolicySpendCommand)
export class RecordPolicySpendHandler implements ICommandHandler<RecordPolicySpendCommand, RecordedPolicySpend> {
  constructor(
    private readonly store: EventStore,
    private readonly snapshots: SnapshotStore,
    private readonly clock: Clock,
  ) {}

  async execute({ policyId, spend }: RecordPolicySpendCommand): Promise<RecordedPolicySpend> {
    const now = this.clock.now();
    const { events, state } = await decideOnStream(
      this.store,
      policyStreamId(policyId),
      spendPolicyDecider,
      { type: 'RecordSpend', ...spend, now },
      { snapshots: this.snapshots },
    );
    const spent = state.status === 'live' ? state.spend : null;
    return {
      recorded: events.length > 0,
      spentTodayCents: spent ? spentOnDayOf(spent, now) : 0,
      spentThisMonthCents: spent ? spentInMonthOf(spent, now) : 0,
    };
  }
}
