import { Module } from '@nestjs/common';
import { EventBusRelay } from './event-bus-relay.saga';
import { ReleaseScanSaga } from './release-scan/release-scan.saga';

/** Process managers that drive multi-step work from the log. CommandBus and Queues come from global modules. */
@Module({ providers: [EventBusRelay, ReleaseScanSaga] })
export class SagasModule {}
