import { Injectable, Logger } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { RecordedEvent } from '../../event-store/event-store';
import { withEventContext } from '../../event-store/event-context';
import { RemoveMemberCommand } from '../../modules/orgs/commands/remove-member/remove-member.command';
import { UserEvents } from '../../modules/users/events';
import { DomainError } from '../../platform/errors/domain-error';
import { AsProcessManager, ProcessManager } from '../../projections/runner/processor';

/**
 * A deleted account leaves its orgs, as if it left itself. Redelivery is
 * harmless: each org's stream decides again, and a membership already gone
 * is skipped. A last owner stays (the rule holds for deletions too), so its
 * org keeps an owner to transfer from; the refusal is logged.
 */
@Injectable()
@AsProcessManager()
export class OrgMembershipOnAccountDeletion implements ProcessManager {
  readonly name = 'org-membership-on-account-deletion';
  readonly eventTypes = [UserEvents.UserDeleted];
  private readonly logger = new Logger(OrgMembershipOnAccountDeletion.name);

  // Only global providers: the runner collects processors when it is built, before any module-scoped dependency
  // of theirs might be.
  constructor(
    private readonly commands: CommandBus,
    private readonly db: DataSource,
  ) {}

  async handle(event: RecordedEvent): Promise<void> {
    const userId = String(event.data.userId);
    const context = { correlationId: event.metadata.correlationId ?? event.eventId, causationId: event.eventId };
    const memberships: { org_id: string }[] = await this.db.query('SELECT org_id FROM org_members WHERE user_id = $1', [userId]);
    for (const { org_id: orgId } of memberships) {
      try {
        await withEventContext(context, () => this.commands.execute(new RemoveMemberCommand(orgId, userId, userId)));
      } catch (error) {
        if (!(error instanceof DomainError) || (error.code !== 'not_found' && error.code !== 'forbidden')) throw error;
        if (error.code === 'forbidden') this.logger.warn(`deleted user ${userId} stays the last owner of org ${orgId}`);
      }
    }
  }
}
