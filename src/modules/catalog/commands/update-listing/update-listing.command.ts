import { Command } from '@nestjs/cqrs';
import { ListingChanges } from '../../domain/listing-fields';

/** Changes any subset of a listing's editable fields. Another vendor's listing is a 404, as if it did not exist. */
export class UpdateListingCommand extends Command<void> {
  constructor(
    readonly vendorId: string,
    readonly listingId: string,
    readonly changes: ListingChanges,
  ) {
    super();
  }
}
