import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { EventStore } from '../../../../event-store/event-store';
import { decideOnStream } from '../../../../event-store/fold-stream';
import { Clock } from '../../../../platform/clock/clock';
import { DomainError } from '../../../../platform/errors/domain-error';
import { ListingChanges } from '../../domain/listing-fields';
import { listingDecider, listingStreamId } from '../../domain/listing.decider';
import { isUuid } from '../../../../platform/ids';

@Injectable()
export class UpdateListingService {
  constructor(
    private readonly store: EventStore,
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {}

  /** Another vendor's listing is a 404, as if it did not exist. */
  async update(vendorId: string, listingId: string, changes: ListingChanges): Promise<void> {
    const [owned] = isUuid(listingId)
      ? await this.dataSource.query('SELECT 1 FROM listings WHERE id = $1 AND vendor_id = $2', [listingId, vendorId])
      : [];
    if (!owned) throw new DomainError('not_found', 'Listing not found');
    await decideOnStream(this.store, listingStreamId(listingId), listingDecider, {
      type: 'UpdateListing',
      vendorId,
      changes,
      now: this.clock.now(),
    });
  }
}
