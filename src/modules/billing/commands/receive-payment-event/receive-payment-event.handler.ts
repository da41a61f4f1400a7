import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { EventStore } from '../../../../event-store/event-store';
import { Clock } from '../../../../platform/clock/clock';
import { DomainError } from '../../../../platform/errors/domain-error';
import { derivedId } from '../../../../platform/ids';
import { WebhookSignature } from '../../adapters/webhook-signature';
import { paymentEventStreamId, readPaymentEvent } from '../../domain/payment-event';
import { BillingEvents } from '../../events';
import { ReceivePaymentEventCommand } from './receive-payment-event.command';

/**
 * Stores a verified processor event and nothing more: crediting wallets and
 * saving cards happen in process managers that follow the log. The stored
 * event's id derives from the processor's, so a redelivery, or ten deliveries
 * at once, store it once.
 */
@CommandHandler(ReceivePaymentEventCommand)
export class ReceivePaymentEventHandler implements ICommandHandler<ReceivePaymentEventCommand, void> {
  constructor(
    private readonly store: EventStore,
    private readonly signature: WebhookSignature,
    private readonly clock: Clock,
  ) {}

  async execute({ rawBody, signature }: ReceivePaymentEventCommand): Promise<void> {
    if (!rawBody || rawBody.length === 0) throw new DomainError('invalid', 'The webhook body is empty');
    if (!this.signature.verifies(rawBody, signature, this.clock.now()))
      throw new DomainError(
        'invalid',
        'pay-signature is missing, malformed, stale, dated ahead of our clock or does not sign this body with our webhook secret',
      );
    let body: unknown;
    try {
      body = JSON.parse(rawBody.toString('utf8'));
    } catch {
      throw new DomainError('invalid', 'Not a payment processor event: the body is not JSON');
    }
    const event = readPaymentEvent(body);
    if (!event) return; // a type we do not act on: acknowledged, not stored
    await this.store.append(
      paymentEventStreamId(event.processorEventId),
      [
        {
          eventId: derivedId(BillingEvents.PaymentEventReceived, event.processorEventId),
          type: BillingEvents.PaymentEventReceived,
          data: { ...event },
        },
      ],
      'any',
    );
  }
}
