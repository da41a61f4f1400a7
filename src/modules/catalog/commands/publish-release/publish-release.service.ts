import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { EventStore } from '../../../../event-store/event-store';
import { decideOnStream } from '../../../../event-store/fold-stream';
import { Clock } from '../../../../platform/clock/clock';
import { DomainError } from '../../../../platform/errors/domain-error';
import { listingDecider, listingStreamId } from '../../domain/listing.decider';
import { isUuid } from '../../../../platform/ids';

@Injectable()
export class PublishReleaseService {
  constructor(
    private readonly store: EventStore,
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {}

  /**
   * Publishes a release the caller owns. A release still being scanned is
   * published when its scan passes or flags; a failed one never is (422).
   */
  async publish(vendorId: string, releaseId: string): Promise<{ version: string }> {
    const [release] = isUuid(releaseId)
      ? await this.dataSource.query('SELECT listing_id, version FROM releases WHERE id = $1 AND vendor_id = $2', [
          releaseId,
          vendorId,
        ])
      : [];
    if (!release) throw new DomainError('not_found', 'Release not found');
    await decideOnStream(this.store, listingStreamId(release.listing_id), listingDecider, {
      type: 'PublishRelease',
      vendorId,
      releaseId,
      now: this.clock.now(),
    });
    return { version: release.version };
  }
}
