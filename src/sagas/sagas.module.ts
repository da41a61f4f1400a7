import { Module } from '@nestjs/common';
import { EventBusRelay } from './event-bus-relay.saga';
import { ReleaseScanSaga } from './release-scan/release-scan.saga';
import { UserDeletionSaga } from './user-deletion/user-deletion.saga';

const sagas = [EventBusRelay, UserDeletionSaga, ReleaseScanSaga];

/**
 * Process managers that drive multi-step work from the log: each reacts to
 * events with idempotent commands and jobs. CommandBus and Queues come from global modules.
 */
@Module({ providers: sagas })
export class SagasModule {}
