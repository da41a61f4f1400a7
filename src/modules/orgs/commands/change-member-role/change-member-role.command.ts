import { Command } from '@nestjs/cqrs';
import { OrgRole } from '../../domain/org.decider';

export class ChangeMemberRoleCommand extends Command<void> {
  constructor(
    readonly orgId: string,
    readonly actorId: string,
    readonly userId: string,
    readonly role: OrgRole,
  ) {
    super();
  }
}
