import { randomUUID } from 'node:crypto';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { EventStore } from '../../../../event-store/event-store';
import { decideOnStream } from '../../../../event-store/fold-stream';
import { SnapshotStore } from '../../../../event-store/snapshot-store';
import { Clock } from '../../../../platform/clock/clock';
import { DEFAULT_POLICY_RULES } from '../../domain/spend-policy';
import { policyStreamId, spendPolicyDecider } from '../../domain/spend-policy.decider';
import { CreatePolicyCommand } from './create-policy.command';

@CommandHandler(CreatePolicyCommand)
export class CreatePolicyHandler implements ICommandHandler<CreatePolicyCommand, { policyId: string }> {
  constructor(
    private readonly store: EventStore,
    private readonly snapshots: SnapshotStore,
    private readonly clock: Clock,
  ) {}

  async execute({ owner, fields }: CreatePolicyCommand): Promise<{ policyId: string }> {
    const policyId = randomUUID();
    const defined = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
    await decideOnStream(
      this.store,
      policyStreamId(policyId),
      spendPolicyDecider,
      {
        type: 'CreatePolicy',
        policyId,
        owner,
        rules: { ...DEFAULT_POLICY_RULES, ...defined, name: fields.name },
        now: this.clock.now(),
      },
      { snapshots: this.snapshots },
    );
    return { policyId };
  }
}
