import { CommandBus, ICommand } from '@nestjs/cqrs';
import type { JobsOptions } from 'bullmq';
import { RecordedEvent } from '../../event-store/event-store';
import { Queues } from '../../platform/queue/queues';
import { EventTypes, ProcessManager } from '../../projections/runner/processor';

/** A background job a saga asks for. `jobId` is derived from the causing event, so a redelivery queues nothing new. */
export interface JobRequest<T = unknown> {
  queue: string;
  name: string;
  jobId: string;
  data: T;
  options?: Omit<JobsOptions, 'jobId'>;
}

/** What a saga decides to do about one event, in order: commands first, then jobs. */
export interface Reaction {
  commands: ICommand[];
  jobs: JobRequest[];
}

export const nothing = (): Reaction => ({ commands: [], jobs: [] });

/**
 * A process manager in two halves: `react` is a pure decision (event in,
 * commands and jobs out) that tests take given/when/then, and `handle` carries
 * it out. Delivery is at least once and the runner retries a failed event, so
 * every command a saga sends must be idempotent: it carries ids derived from
 * the causing event (`derivedId`), and a command that already took effect
 * changes nothing the second time.
 */
export abstract class Saga implements ProcessManager {
  abstract readonly name: string;
  abstract readonly eventTypes: EventTypes;

  constructor(
    private readonly commands: CommandBus,
    private readonly queues?: Queues,
  ) {}

  abstract react(event: RecordedEvent): Reaction;

  async handle(event: RecordedEvent): Promise<void> {
    const reaction = this.react(event);
    for (const command of reaction.commands) await this.commands.execute(command);
    for (const job of reaction.jobs) {
      if (!this.queues) throw new Error(`${this.name} asked for a ${job.queue} job but was built without queues`);
      await this.queues.queue(job.queue).add(job.name, job.data, { ...job.options, jobId: job.jobId });
    }
  }
}
