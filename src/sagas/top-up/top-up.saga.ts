import { Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { RecordedEvent } from '../../event-store/event-store';
import { PaymentEventReceived } from '../../modules/billing/domain/payment-event';
import { BillingEvents } from '../../modules/billing/events';
import { FailTopUpCommand } from '../../modules/wallet/commands/fail-top-up/fail-top-up.command';
import { SettleTopUpCommand } from '../../modules/wallet/commands/settle-top-up/settle-top-up.command';
import { AsProcessManager } from '../../projections/runner/processor';
import { nothing, Reaction, Saga } from '../kit/saga';

/**
 * From the processor's word to the wallet: a paid intent credits the top-up
 * it funds (the amount our own record holds, once per intent), a failed one
 * is recorded, and a failed auto top-up frees the wallet to ask again.
 */
@Injectable()
@AsProcessManager()
export class TopUpSaga extends Saga {
  // The checkpoint is stored under this name: renaming it would replay every payment.
  readonly name = 'top-up';
  readonly eventTypes = [BillingEvents.PaymentEventReceived];

  constructor(commands: CommandBus) {
    super(commands);
  }

  react(event: RecordedEvent): Reaction {
    const { data } = event as unknown as PaymentEventReceived;
    // Card purchases have their own saga.
    if (data.metadata.orderId) return nothing();
    const topUpId = data.metadata.topUpId ?? null;
    switch (data.eventType) {
      case 'payment_intent.succeeded':
        return {
          commands: [new SettleTopUpCommand(data.processorEventId, data.objectId, topUpId, data.amountCents ?? 0)],
          jobs: [],
        };
      case 'payment_intent.payment_failed':
      case 'payment_intent.canceled':
        return {
          commands: [
            new FailTopUpCommand(topUpId, data.objectId, data.processorEventId, data.failureMessage ?? 'The payment failed'),
          ],
          jobs: [],
        };
      default:
        return nothing();
    }
  }
}
