import { randomUUID } from 'node:crypto';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { EventStore } from '../../../../event-store/event-store';
import { retryOnConflict } from '../../../../event-store/fold-stream';
import { Clock } from '../../../../platform/clock/clock';
import { IdempotentRequest } from '../../../../platform/http/idempotency';
import { billingCustomerDecider, billingCustomerStreamId } from '../../domain/billing-customer.decider';
import { PaymentGateway } from '../../domain/payment-gateway';
import { BillingCustomers } from '../billing-customers';
import { OpenedSetupIntent, OpenSetupIntentCommand } from './open-setup-intent.command';

@CommandHandler(OpenSetupIntentCommand)
export class OpenSetupIntentHandler implements ICommandHandler<OpenSetupIntentCommand, OpenedSetupIntent> {
  constructor(
    private readonly store: EventStore,
    private readonly customers: BillingCustomers,
    private readonly gateway: PaymentGateway,
    private readonly clock: Clock,
  ) {}

  async execute({ owner }: OpenSetupIntentCommand): Promise<OpenedSetupIntent> {
    // With an Idempotency-Key, a retry asks the processor for the same setup intent.
    const idempotencyKey = IdempotentRequest.derivedId('SetupIntent') ?? randomUUID();
    return retryOnConflict(async () => {
      const { customerId, revision } = await this.customers.ensure(owner);
      const intent = await this.gateway.createSetupIntent({
        customerId,
        metadata: { ownerKind: owner.kind, ownerId: owner.id },
        idempotencyKey,
      });
      const answer: OpenedSetupIntent = { clientSecret: intent.clientSecret };
      const events = billingCustomerDecider.decide(
        { type: 'RecordSetupIntent', setupIntentId: intent.id, now: this.clock.now() },
        billingCustomerDecider.initialState,
      );
      await this.store.appendAtomically([
        { streamId: billingCustomerStreamId(owner.kind, owner.id), events, expected: revision },
        ...(await IdempotentRequest.recordAnswer(answer)),
      ]);
      return answer;
    });
  }
}
