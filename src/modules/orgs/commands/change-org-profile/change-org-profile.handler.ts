import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Clock } from '../../../../platform/clock/clock';
import { checkOrgName } from '../../domain/org-profile';
import { OrgDecisions } from '../org-decisions';
import { ChangeOrgProfileCommand } from './change-org-profile.command';

@CommandHandler(ChangeOrgProfileCommand)
export class ChangeOrgProfileHandler implements ICommandHandler<ChangeOrgProfileCommand, void> {
  constructor(
    private readonly orgs: OrgDecisions,
    private readonly clock: Clock,
  ) {}

  async execute({ orgId, actorId, changes }: ChangeOrgProfileCommand): Promise<void> {
    await this.orgs.decide(orgId, {
      type: 'ChangeProfile',
      actorId,
      name: changes.name === undefined ? undefined : checkOrgName(changes.name),
      avatarUrl: changes.avatarUrl,
      now: this.clock.now(),
    });
  }
}
