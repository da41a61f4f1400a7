import { Command } from '@nestjs/cqrs';

/** Removes a member, or (the actor itself) leaves. */
export class RemoveMemberCommand extends Command<void> {
  constructor(
    readonly orgId: string,
    readonly actorId: string,
    readonly userId: string,
  ) {
    super();
  }
}
