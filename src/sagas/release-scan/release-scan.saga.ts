import { Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { RecordedEvent } from '../../event-store/event-store';
import { ListingEvent } from '../../modules/catalog/domain/listing.decider';
import { CatalogEvents } from '../../modules/catalog/events';
import { RELEASE_SCAN_QUEUE, ReleaseScanJob } from '../../modules/catalog/scanning/release-scan.jobs';
import { Queues } from '../../platform/queue/queues';
import { AsProcessManager } from '../../projections/runner/processor';
import { nothing, Reaction, Saga } from '../kit/saga';

type ReleaseUploaded = Extract<ListingEvent, { type: typeof CatalogEvents.ReleaseUploaded }>;

/**
 * Every uploaded release gets a scan job. The job id is the event id, so a
 * redelivered event never queues twice (and jobs stored before this saga moved
 * here keep deduplicating). The job carries the upload's ids, so the recorded
 * scan names its cause.
 */
@Injectable()
@AsProcessManager()
export class ReleaseScanSaga extends Saga {
  // The checkpoint is stored under this name: renaming it would replay every upload.
  readonly name = 'release-scan';
  readonly eventTypes = [CatalogEvents.ReleaseUploaded];

  constructor(commands: CommandBus, queues: Queues) {
    super(commands, queues);
  }

  react(event: RecordedEvent): Reaction {
    if (event.type !== CatalogEvents.ReleaseUploaded) return nothing();
    const { data } = event as unknown as ReleaseUploaded;
    const job: ReleaseScanJob = {
      listingId: data.listingId,
      releaseId: data.releaseId,
      archiveSha256: data.archiveSha256,
      signed: data.signedWith !== null,
      causationId: event.eventId,
      correlationId: event.metadata.correlationId ?? event.eventId,
    };
    return {
      commands: [],
      jobs: [
        {
          queue: RELEASE_SCAN_QUEUE,
          name: 'scan',
          jobId: event.eventId,
          data: job,
          options: {
            attempts: 5,
            backoff: { type: 'exponential', delay: 1_000 },
            removeOnComplete: 1_000,
            removeOnFail: 1_000,
          },
        },
      ],
    };
  }
}
