import { Injectable, Logger } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { RecordedEvent } from '../../event-store/event-store';
import { RecordAccountStatusCommand } from '../../modules/billing/commands/record-account-status/record-account-status.command';
import { PaymentEventReceived } from '../../modules/billing/domain/payment-event';
import { BillingEvents } from '../../modules/billing/events';
import { isUuid } from '../../platform/ids';
import { AsProcessManager } from '../../projections/runner/processor';
import { nothing, Reaction, Saga } from '../kit/saga';

/**
 * The processor's word on a vendor's payout account: each `account.updated`
 * records the account's onboarding flags for the vendor named in its metadata
 * (set when we created the account).
 */
@Injectable()
@AsProcessManager()
export class ConnectedAccountSaga extends Saga {
  readonly name = 'connected-account';
  readonly eventTypes = [BillingEvents.PaymentEventReceived];
  private readonly logger = new Logger(ConnectedAccountSaga.name);

  constructor(commands: CommandBus) {
    super(commands);
  }

  react(event: RecordedEvent): Reaction {
    const { data } = event as unknown as PaymentEventReceived;
    if (data.eventType !== 'account.updated' || !data.account) return nothing();
    const vendorId = data.metadata.vendorId;
    if (!vendorId || !isUuid(vendorId)) {
      this.logger.warn(`account ${data.objectId} names no vendor of ours: its update is ignored`);
      return nothing();
    }
    const { chargesEnabled, detailsSubmitted } = data.account;
    return {
      commands: [
        new RecordAccountStatusCommand(
          vendorId,
          data.objectId,
          chargesEnabled,
          detailsSubmitted,
          data.processorEventId,
          data.occurredAt,
        ),
      ],
      jobs: [],
    };
  }
}
