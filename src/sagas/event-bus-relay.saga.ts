import { Injectable } from '@nestjs/common';
import { EventBus } from '@nestjs/cqrs';
import { RecordedEvent } from '../event-store/event-store';
import { storedEventClass } from '../event-store/stored-event';
import { AsProcessManager, ProcessManager } from '../projections/runner/processor';

/**
 * Feeds the in-process @nestjs/cqrs EventBus from the durable subscription, so
 * handlers only ever see committed events. The bus isolates handlers: one that
 * throws is reported and the next event is still delivered.
 */
@Injectable()
@AsProcessManager()
export class EventBusRelay implements ProcessManager {
  readonly name = 'event-bus-relay';

  constructor(private readonly eventBus: EventBus) {}

  /** Every event; those without a message class have no handler and are skipped. */
  readonly eventTypes = 'all';

  async handle(event: RecordedEvent): Promise<void> {
    const Message = storedEventClass(event.type);
    if (Message) this.eventBus.publish(new Message(event));
  }
}
