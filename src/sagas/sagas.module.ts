import { Module } from '@nestjs/common';
import { EventBusRelay } from './event-bus-relay.saga';
import { UserDeletionSaga } from './user-deletion/user-deletion.saga';

const sagas = [EventBusRelay, UserDeletionSaga];

/** Process managers that drive multi-step work from the log: each reacts to events with idempotent commands and jobs. */
@Module({ providers: sagas })
export class SagasModule {}
