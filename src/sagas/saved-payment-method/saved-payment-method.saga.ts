import { Injectable, Logger } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { RecordedEvent } from '../../event-store/event-store';
import { RemovePaymentMethodCommand } from '../../modules/billing/commands/remove-payment-method/remove-payment-method.command';
import { SavePaymentMethodCommand } from '../../modules/billing/commands/save-payment-method/save-payment-method.command';
import { PaymentEventReceived } from '../../modules/billing/domain/payment-event';
import { BillingEvents } from '../../modules/billing/events';
import { AsProcessManager } from '../../projections/runner/processor';
import { nothing, Reaction, Saga } from '../kit/saga';

/**
 * A succeeded setup intent saves its card for the owner named in the intent's
 * metadata (set when we created it); a detached card is removed.
 */
@Injectable()
@AsProcessManager()
export class SavedPaymentMethodSaga extends Saga {
  readonly name = 'saved-payment-method';
  readonly eventTypes = [BillingEvents.PaymentEventReceived];
  private readonly logger = new Logger(SavedPaymentMethodSaga.name);

  constructor(commands: CommandBus) {
    super(commands);
  }

  react(event: RecordedEvent): Reaction {
    const { data } = event as unknown as PaymentEventReceived;
    if (data.eventType === 'payment_method.detached' && data.paymentMethodId)
      return { commands: [new RemovePaymentMethodCommand(data.paymentMethodId)], jobs: [] };
    if (data.eventType !== 'setup_intent.succeeded') return nothing();
    const { ownerKind, ownerId } = data.metadata;
    if ((ownerKind !== 'user' && ownerKind !== 'org') || !ownerId || !data.paymentMethodId) {
      this.logger.warn(`setup intent ${data.objectId} names no owner of ours or no payment method: ignored`);
      return nothing();
    }
    return {
      commands: [new SavePaymentMethodCommand({ kind: ownerKind, id: ownerId }, data.objectId, data.paymentMethodId)],
      jobs: [],
    };
  }
}
