import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { EventStore } from '../../../../event-store/event-store';
import { decideOnStream } from '../../../../event-store/fold-stream';
import { Clock } from '../../../../platform/clock/clock';
import { DomainError } from '../../../../platform/errors/domain-error';
import { listingDecider, listingStreamId } from '../../domain/listing.decider';
import { CatalogVendorsReader } from '../../read-models/catalog-vendors.reader';
import { ListingsReader } from '../../read-models/listings.reader';
import { UpdateListingCommand } from './update-listing.command';

@CommandHandler(UpdateListingCommand)
export class UpdateListingHandler implements ICommandHandler<UpdateListingCommand, void> {
  constructor(
    private readonly store: EventStore,
    private readonly vendors: CatalogVendorsReader,
    private readonly listings: ListingsReader,
    private readonly clock: Clock,
  ) {}

  async execute({ vendorId, listingId, changes }: UpdateListingCommand): Promise<void> {
    await this.vendors.require(vendorId);
    if (!(await this.listings.isOwnedBy(listingId, vendorId))) throw new DomainError('not_found', 'Listing not found');
    await decideOnStream(this.store, listingStreamId(listingId), listingDecider, {
      type: 'UpdateListing',
      vendorId,
      changes,
      now: this.clock.now(),
    });
  }
}
