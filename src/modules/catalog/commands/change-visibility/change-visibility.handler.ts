import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { EventStore } from '../../../../event-store/event-store';
import { decideOnStream } from '../../../../event-store/fold-stream';
import { Clock } from '../../../../platform/clock/clock';
import { DomainError } from '../../../../platform/errors/domain-error';
import { isUuid } from '../../../../platform/ids';
import { listingDecider, listingStreamId } from '../../domain/listing.decider';
import { ChangeVisibilityCommand } from './change-visibility.command';

@CommandHandler(ChangeVisibilityCommand)
export class ChangeVisibilityHandler implements ICommandHandler<ChangeVisibilityCommand, void> {
  constructor(
    private readonly store: EventStore,
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {}

  async execute({ orgId, listingId, visibility }: ChangeVisibilityCommand): Promise<void> {
    const [listing] = isUuid(listingId)
      ? await this.dataSource.query(
          `SELECT l.vendor_id FROM listings l JOIN catalog_vendors v ON v.vendor_id = l.vendor_id
           WHERE l.id = $1 AND v.org_id = $2`,
          [listingId, orgId],
        )
      : [];
    if (!listing) throw new DomainError('not_found', 'Listing not found among the org packages');
    await decideOnStream(this.store, listingStreamId(listingId), listingDecider, {
      type: 'ChangeVisibility',
      vendorId: listing.vendor_id,
      visibility,
      now: this.clock.now(),
    });
  }
}
