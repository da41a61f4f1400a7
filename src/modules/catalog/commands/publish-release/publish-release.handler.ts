import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { EventStore } from '../../../../event-store/event-store';
import { decideOnStream } from '../../../../event-store/fold-stream';
import { Clock } from '../../../../platform/clock/clock';
import { DomainError } from '../../../../platform/errors/domain-error';
import { listingDecider, listingStreamId } from '../../domain/listing.decider';
import { CatalogVendorsReader } from '../../read-models/catalog-vendors.reader';
import { ListingsReader } from '../../read-models/listings.reader';
import { PublishReleaseCommand } from './publish-release.command';

@CommandHandler(PublishReleaseCommand)
export class PublishReleaseHandler implements ICommandHandler<PublishReleaseCommand, { version: string }> {
  constructor(
    private readonly store: EventStore,
    private readonly vendors: CatalogVendorsReader,
    private readonly listings: ListingsReader,
    private readonly clock: Clock,
  ) {}

  async execute({ vendorId, releaseId }: PublishReleaseCommand): Promise<{ version: string }> {
    await this.vendors.require(vendorId);
    const release = await this.listings.ownedRelease(releaseId, vendorId);
    if (!release) throw new DomainError('not_found', 'Release not found');
    await decideOnStream(this.store, listingStreamId(release.listingId), listingDecider, {
      type: 'PublishRelease',
      vendorId,
      releaseId,
      now: this.clock.now(),
    });
    return { version: release.version };
  }
}
