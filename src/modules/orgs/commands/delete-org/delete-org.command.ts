import { Command } from '@nestjs/cqrs';

/** Owners only; refused while the org wallet holds money. */
export class DeleteOrgCommand extends Command<void> {
  constructor(
    readonly orgId: string,
    readonly actorId: string,
  ) {
    super();
  }
}
