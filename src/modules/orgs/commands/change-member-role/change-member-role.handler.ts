import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Clock } from '../../../../platform/clock/clock';
import { OrgDecisions } from '../org-decisions';
import { ChangeMemberRoleCommand } from './change-member-role.command';

@CommandHandler(ChangeMemberRoleCommand)
export class ChangeMemberRoleHandler implements ICommandHandler<ChangeMemberRoleCommand, void> {
  constructor(
    private readonly orgs: OrgDecisions,
    private readonly clock: Clock,
  ) {}

  async execute({ orgId, actorId, userId, role }: ChangeMemberRoleCommand): Promise<void> {
    await this.orgs.decide(orgId, { type: 'ChangeMemberRole', actorId, userId, role, now: this.clock.now() });
  }
}
