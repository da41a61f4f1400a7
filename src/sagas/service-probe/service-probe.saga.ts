import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Job } from 'bullmq';
import { AppConfig } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';
import { RecordedEvent } from '../../event-store/event-store';
import { withEventContext } from '../../event-store/event-context';
import { ListingEvent } from '../../modules/catalog/domain/listing.decider';
import { CatalogEvents } from '../../modules/catalog/events';
import { ProbeServiceCommand } from '../../modules/network/commands/probe-service/probe-service.command';
import { derivedId } from '../../platform/ids';
import { Queues } from '../../platform/queue/queues';
import { AsProcessManager, ProcessManager } from '../../projections/runner/processor';

export const SERVICE_PROBE_QUEUE = 'service-probes';

export interface ProbeJob {
  listingId: string;
}

type ListingUpdated = Extract<ListingEvent, { type: 'ListingUpdated' }>;

/**
 * Health probes: when a vendor registers or changes a listing's service, it
 * is probed at once (job id from the event, so a redelivery probes nothing
 * more) and a BullMQ job scheduler per listing probes it every
 * SERVICE_PROBE_INTERVAL_MS; clearing the endpoint removes the scheduler.
 */
@Injectable()
@AsProcessManager()
export class ServiceProbeSaga implements ProcessManager, OnApplicationBootstrap {
  readonly name = 'service-probe';
  readonly eventTypes = [CatalogEvents.ListingUpdated];

  constructor(
    private readonly commands: CommandBus,
    private readonly queues: Queues,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.runProcessors) return;
    this.queues.worker<ProbeJob>(SERVICE_PROBE_QUEUE, (job: Job<ProbeJob>) => this.probe(job), { concurrency: 4 });
  }

  async handle(event: RecordedEvent): Promise<void> {
    const { data } = event as unknown as ListingUpdated;
    const { changes, listingId } = data;
    if (changes.serviceEndpoint === undefined && changes.serviceProtocol === undefined && changes.serviceTransport === undefined)
      return;
    const queue = this.queues.queue<ProbeJob>(SERVICE_PROBE_QUEUE);
    const schedulerId = `probe-${listingId}`;
    if (changes.serviceEndpoint === null) {
      await queue.removeJobScheduler(schedulerId);
      return;
    }
    await queue.add(
      'probe',
      { listingId },
      { jobId: derivedId('ServiceProbe', event.eventId), removeOnComplete: 100, removeOnFail: 100 },
    );
    const every = this.config.network.serviceProbeIntervalMs;
    await queue.upsertJobScheduler(
      schedulerId,
      { every, startDate: Date.now() + every },
      { name: 'probe', data: { listingId }, opts: { removeOnComplete: 100, removeOnFail: 100 } },
    );
  }

  private probe(job: Job<ProbeJob>): Promise<unknown> {
    const probeId = job.id ?? `${job.data.listingId}-${job.timestamp}`;
    return withEventContext({ correlationId: derivedId('ServiceProbe', probeId) }, () =>
      this.commands.execute(new ProbeServiceCommand(job.data.listingId, probeId)),
    );
  }
}
