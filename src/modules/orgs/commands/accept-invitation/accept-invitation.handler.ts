import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Clock } from '../../../../platform/clock/clock';
import { DomainError } from '../../../../platform/errors/domain-error';
import { INVITATION_NOT_FOUND } from '../../domain/org.decider';
import { invitationTokenHash } from '../../domain/invitation-tokens';
import { OrgsReader } from '../../read-models/orgs.reader';
import { OrgDecisions } from '../org-decisions';
import { AcceptInvitationCommand } from './accept-invitation.command';

/**
 * The read model only routes the token's hash to its org; the org's stream
 * decides (still open, not expired, the same e-mail), so a token is used once
 * even when two accepts race.
 */
@CommandHandler(AcceptInvitationCommand)
export class AcceptInvitationHandler implements ICommandHandler<AcceptInvitationCommand, void> {
  constructor(
    private readonly orgs: OrgDecisions,
    private readonly reader: OrgsReader,
    private readonly clock: Clock,
  ) {}

  async execute({ userId, token }: AcceptInvitationCommand): Promise<void> {
    const tokenHash = invitationTokenHash(token);
    const orgId = await this.reader.orgOfInvitation(tokenHash);
    if (!orgId) throw new DomainError('not_found', INVITATION_NOT_FOUND);
    await this.orgs.decide(orgId, {
      type: 'AcceptInvitation',
      userId,
      userEmail: await this.reader.emailOf(userId),
      tokenHash,
      now: this.clock.now(),
    });
  }
}
