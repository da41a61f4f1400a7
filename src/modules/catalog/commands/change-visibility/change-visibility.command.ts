import { Command } from '@nestjs/cqrs';
import { ListingVisibility } from '../../domain/listing.decider';

/** An org admin or owner sets the visibility of one of the org's packages (a listing of its vendor profile). */
export class ChangeVisibilityCommand extends Command<void> {
  constructor(
    readonly orgId: string,
    readonly listingId: string,
    readonly visibility: ListingVisibility,
  ) {
    super();
  }
}
