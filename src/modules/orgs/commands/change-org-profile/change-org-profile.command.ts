import { Command } from '@nestjs/cqrs';

/** `name` and `avatarUrl` (null clears it); admins and owners only. */
export class ChangeOrgProfileCommand extends Command<void> {
  constructor(
    readonly orgId: string,
    readonly actorId: string,
    readonly changes: { name?: string; avatarUrl?: string | null },
  ) {
    super();
  }
}
