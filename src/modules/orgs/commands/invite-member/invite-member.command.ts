import { Command } from '@nestjs/cqrs';
import { InvitableRole } from '../../domain/org.decider';

export interface InvitationAnswer {
  id: string;
  email: string;
  role: InvitableRole;
  expiresAt: string;
}

/** Invites an address (admins and owners); the e-mail goes out from the mail process. */
export class InviteMemberCommand extends Command<InvitationAnswer> {
  constructor(
    readonly orgId: string,
    readonly actorId: string,
    readonly email: string,
    readonly role: InvitableRole,
  ) {
    super();
  }
}
