import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { EventStore } from '../../../../event-store/event-store';
import { decideOnStream } from '../../../../event-store/fold-stream';
import { AppConfig } from '../../../../config/app-config';
import { InjectConfig } from '../../../../config/config.module';
import { Clock } from '../../../../platform/clock/clock';
import { checkServiceEndpoint } from '../../../../platform/outbound/service-endpoint-check';
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
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  async execute({ vendorId, listingId, changes }: UpdateListingCommand): Promise<void> {
    await this.vendors.require(vendorId);
    if (!(await this.listings.isOwnedBy(listingId, vendorId))) throw new DomainError('not_found', 'Listing not found');
    // Checked again on every connection after DNS resolution (OutboundGuard).
    if (changes.serviceEndpoint)
      await checkServiceEndpoint(changes.serviceEndpoint, { allowPrivate: this.config.network.allowPrivateServiceEndpoints });
    await decideOnStream(this.store, listingStreamId(listingId), listingDecider, {
      type: 'UpdateListing',
      vendorId,
      changes,
      now: this.clock.now(),
    });
  }
}
