import { Module } from '@nestjs/common';
import { EventBusRelay } from './event-bus-relay.saga';

/** Process managers that drive multi-step work from the log. */
@Module({ providers: [EventBusRelay] })
export class SagasModule {}
