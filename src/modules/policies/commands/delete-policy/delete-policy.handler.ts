import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { EventStore } from '../../../../event-store/event-store';
import { decideOnStream } from '../../../../event-store/fold-stream';
import { SnapshotStore } from '../../../../event-store/snapshot-store';
import { Clock } from '../../../../platform/clock/clock';
import { policyStreamId, spendPolicyDecider } from '../../domain/spend-policy.decider';
import { DeletePolicyCommand } from './delete-policy.command';

@CommandHandler(DeletePolicyCommand)
export class DeletePolicyHandler implements ICommandHandler<DeletePolicyCommand, void> {
  constructor(
    private readonly store: EventStore,
    private readonly snapshots: SnapshotStore,
    private readonly clock: Clock,
  ) {}

  async execute({ owner, policyId }: DeletePolicyCommand): Promise<void> {
    await decideOnStream(
      this.store,
      policyStreamId(policyId),
      spendPolicyDecider,
      { type: 'DeletePolicy', owner, now: this.clock.now() },
      { snapshots: this.snapshots },
    );
  }
}
