import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { EventStore } from '../../../../event-store/event-store';
import { decideOnStream } from '../../../../event-store/fold-stream';
import { SnapshotStore } from '../../../../event-store/snapshot-store';
import { Clock } from '../../../../platform/clock/clock';
import { policyStreamId, spendPolicyDecider } from '../../domain/spend-policy.decider';
import { UpdatePolicyCommand } from './update-policy.command';

@CommandHandler(UpdatePolicyCommand)
export class UpdatePolicyHandler implements ICommandHandler<UpdatePolicyCommand, void> {
  constructor(
    private readonly store: EventStore,
    private readonly snapshots: SnapshotStore,
    private readonly clock: Clock,
  ) {}

  async execute({ owner, policyId, changes }: UpdatePolicyCommand): Promise<void> {
    // At the revision read: a purchase recorded meanwhile makes the update decide again, and never the reverse.
    await decideOnStream(
      this.store,
      policyStreamId(policyId),
      spendPolicyDecider,
      { type: 'UpdatePolicy', owner, changes, now: this.clock.now() },
      { snapshots: this.snapshots },
    );
  }
}
