import { randomUUID } from 'node:crypto';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { PersonalDataVault } from '../../../../event-store/personal-data/personal-data-vault';
import { Clock } from '../../../../platform/clock/clock';
import { DomainError } from '../../../../platform/errors/domain-error';
import { OrgEvents } from '../../events';
import { invitationTokenHash, InvitationTokens } from '../../domain/invitation-tokens';
import { OrgsReader } from '../../read-models/orgs.reader';
import { OrgDecisions } from '../org-decisions';
import { InvitationAnswer, InviteMemberCommand } from './invite-member.command';

/**
 * Stores the invitation with its token's hash only; the token itself is
 * derived again by the mail process (see InvitationTokens). The address is
 * sealed under the invitation's own key: the invitee may never become a user.
 */
@CommandHandler(InviteMemberCommand)
export class InviteMemberHandler implements ICommandHandler<InviteMemberCommand, InvitationAnswer> {
  constructor(
    private readonly orgs: OrgDecisions,
    private readonly tokens: InvitationTokens,
    private readonly reader: OrgsReader,
    private readonly vault: PersonalDataVault,
    private readonly clock: Clock,
  ) {}

  async execute({ orgId, actorId, email, role }: InviteMemberCommand): Promise<InvitationAnswer> {
    const invitationId = randomUUID();
    const address = email.trim();
    if (await this.reader.hasMemberWithEmail(orgId, address))
      throw new DomainError('conflict', 'This address belongs to a member of the organization already');
    const { events } = await this.orgs.decide(orgId, {
      type: 'InviteMember',
      actorId,
      invitationId,
      email: address,
      storedEmail: await this.vault.seal(`org-invitation-${invitationId}`, address),
      role,
      tokenHash: invitationTokenHash(this.tokens.tokenFor(invitationId)),
      now: this.clock.now(),
    });
    const invited = events.find((event) => event.type === OrgEvents.OrgMemberInvited);
    const expiresAt = invited && 'expiresAt' in invited.data ? invited.data.expiresAt : '';
    return { id: invitationId, email: address, role, expiresAt };
  }
}
