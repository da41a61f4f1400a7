import { Command } from '@nestjs/cqrs';

/** Joins the org the token invites to; the caller's e-mail must be the invited one. */
export class AcceptInvitationCommand extends Command<void> {
  constructor(
    readonly userId: string,
    readonly token: string,
  ) {
    super();
  }
}
