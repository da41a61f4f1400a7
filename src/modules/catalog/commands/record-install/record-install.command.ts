import { Command } from '@nestjs/cqrs';

/**
 * Records that a user downloaded a listing, so installs, trending and hot move
 * with real downloads. Counts once per user, listing and UTC day.
 */
export class RecordInstallCommand extends Command<void> {
  constructor(
    readonly listingId: string,
    readonly userId: string,
  ) {
    super();
  }
}
