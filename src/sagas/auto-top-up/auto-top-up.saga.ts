import { Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { RecordedEvent } from '../../event-store/event-store';
import { WalletEvent } from '../../modules/wallet/domain/wallet.decider';
import { walletOwnerOf } from '../../modules/wallet/domain/wallet-owner';
import { WalletEvents } from '../../modules/wallet/events';
import { Queues } from '../../platform/queue/queues';
import { AsProcessManager } from '../../projections/runner/processor';
import { nothing, Reaction, Saga } from '../kit/saga';
import { AUTO_TOP_UP_QUEUE, AutoTopUpJob } from './auto-top-up.process';

type AutoTopUpRequested = Extract<WalletEvent, { type: typeof WalletEvents.AutoTopUpRequested }>;

/**
 * The wallet decided, once while none is in flight, that it needs an auto
 * top-up: queue the charge. The job id is the event's, so a redelivery queues nothing.
 */
@Injectable()
@AsProcessManager()
export class AutoTopUpSaga extends Saga {
  readonly name = 'auto-top-up';
  readonly eventTypes = [WalletEvents.AutoTopUpRequested];

  constructor(commands: CommandBus, queues: Queues) {
    super(commands, queues);
  }

  react(event: RecordedEvent): Reaction {
    const owner = walletOwnerOf(event.streamId);
    if (event.type !== WalletEvents.AutoTopUpRequested || !owner) return nothing();
    const { data } = event as unknown as AutoTopUpRequested;
    const job: AutoTopUpJob = {
      topUpId: data.topUpId,
      owner,
      amountCents: data.amountCents,
      causationId: event.eventId,
      correlationId: event.metadata.correlationId ?? event.eventId,
    };
    return {
      commands: [],
      jobs: [
        {
          queue: AUTO_TOP_UP_QUEUE,
          name: 'charge',
          jobId: event.eventId,
          data: job,
          options: { attempts: 8, backoff: { type: 'exponential', delay: 2_000 }, removeOnComplete: 1_000, removeOnFail: 1_000 },
        },
      ],
    };
  }
}
