import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Job } from 'bullmq';
import { AppConfig } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';
import { RecordedEvent } from '../../event-store/event-store';
import { withEventContext } from '../../event-store/event-context';
import { ResolveServiceCallCommand } from '../../modules/network/commands/resolve-service-call/resolve-service-call.command';
import { ServiceCallEvent } from '../../modules/network/domain/service-call.decider';
import { NetworkEvents } from '../../modules/network/events';
import { Clock } from '../../platform/clock/clock';
import { Queues } from '../../platform/queue/queues';
import { AsProcessManager } from '../../projections/runner/processor';
import { nothing, Reaction, Saga } from '../kit/saga';

export const SERVICE_CALL_QUEUE = 'service-call-settlement';

export interface ResolveServiceCallJob {
  callId: string;
  causationId: string;
  correlationId: string;
}

type Reserved = Extract<ServiceCallEvent, { type: typeof NetworkEvents.ServiceCallReserved }>;

/**
 * No reservation is left hanging: each reserved call gets a job due at its
 * settle-by time, which releases and refunds the call if its own request has
 * not settled it by then (the process died between the reservation and the
 * settlement). Settling is decided on the call's stream at its revision, so
 * the request and this job never both settle, and a call is charged once or
 * not at all. The job id is the reservation event's: a redelivery queues nothing.
 */
@Injectable()
@AsProcessManager()
export class ServiceCallSaga extends Saga implements OnApplicationBootstrap {
  readonly name = 'service-call';
  readonly eventTypes = [NetworkEvents.ServiceCallReserved];

  constructor(
    private readonly bus: CommandBus,
    private readonly jobs: Queues,
    private readonly clock: Clock,
    @InjectConfig() private readonly config: AppConfig,
  ) {
    super(bus, jobs);
  }

  onApplicationBootstrap(): void {
    if (!this.config.runProcessors) return;
    this.jobs.worker<ResolveServiceCallJob>(SERVICE_CALL_QUEUE, (job: Job<ResolveServiceCallJob>) => this.resolve(job.data), {
      concurrency: 2,
    });
  }

  react(event: RecordedEvent): Reaction {
    if (event.type !== NetworkEvents.ServiceCallReserved) return nothing();
    const { data } = event as unknown as Reserved;
    const job: ResolveServiceCallJob = {
      callId: data.callId,
      causationId: event.eventId,
      correlationId: event.metadata.correlationId ?? event.eventId,
    };
    return {
      commands: [],
      jobs: [
        {
          queue: SERVICE_CALL_QUEUE,
          name: 'resolve',
          jobId: event.eventId,
          data: job,
          options: {
            delay: Math.max(0, Date.parse(data.settleBy) - this.clock.now().getTime()),
            attempts: 20,
            backoff: { type: 'exponential', delay: 1_000 },
            removeOnComplete: 1_000,
            removeOnFail: 1_000,
          },
        },
      ],
    };
  }

  resolve(job: ResolveServiceCallJob): Promise<unknown> {
    return withEventContext({ correlationId: job.correlationId, causationId: job.causationId }, () =>
      this.bus.execute(new ResolveServiceCallCommand(job.callId)),
    );
  }
}
