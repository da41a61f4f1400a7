import { Command } from '@nestjs/cqrs';

/** A new organization; the creator becomes its owner. */
export class CreateOrgCommand extends Command<{ orgId: string; slug: string; name: string }> {
  constructor(
    readonly creatorId: string,
    readonly slug: string,
    readonly name: string,
  ) {
    super();
  }
}
