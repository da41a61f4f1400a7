import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Clock } from '../../../../platform/clock/clock';
import { OrgDecisions } from '../org-decisions';
import { RemoveMemberCommand } from './remove-member.command';

@CommandHandler(RemoveMemberCommand)
export class RemoveMemberHandler implements ICommandHandler<RemoveMemberCommand, void> {
  constructor(
    private readonly orgs: OrgDecisions,
    private readonly clock: Clock,
  ) {}

  async execute({ orgId, actorId, userId }: RemoveMemberCommand): Promise<void> {
    await this.orgs.decide(orgId, { type: 'RemoveMember', actorId, userId, now: this.clock.now() });
  }
}
