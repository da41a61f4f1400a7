import { randomUUID } from 'node:crypto';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AppConfig } from '../../../../config/app-config';
import { InjectConfig } from '../../../../config/config.module';
import { EventStore } from '../../../../event-store/event-store';
import { retryOnConflict } from '../../../../event-store/fold-stream';
import { Clock } from '../../../../platform/clock/clock';
import { IdempotentRequest } from '../../../../platform/http/idempotency';
import { billingCustomerDecider, billingCustomerStreamId } from '../../domain/billing-customer.decider';
import { PaymentGateway } from '../../domain/payment-gateway';
import { BillingCustomers } from '../billing-customers';
import { CheckoutReturn, OpenCardSetupSessionCommand } from './open-card-setup-session.command';

@CommandHandler(OpenCardSetupSessionCommand)
export class OpenCardSetupSessionHandler implements ICommandHandler<OpenCardSetupSessionCommand, { url: string }> {
  constructor(
    private readonly store: EventStore,
    private readonly customers: BillingCustomers,
    private readonly gateway: PaymentGateway,
    private readonly clock: Clock,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  async execute({ owner, checkout }: OpenCardSetupSessionCommand): Promise<{ url: string }> {
    // With an Idempotency-Key (a web form's), a resubmission gets the same session.
    const idempotencyKey = IdempotentRequest.derivedId('CardSetupSession') ?? randomUUID();
    return retryOnConflict(async () => {
      const { customerId, revision } = await this.customers.ensure(owner);
      const session = await this.gateway.createCardSetupSession({
        customerId,
        successUrl: this.checkoutUrl(checkout, 'added'),
        cancelUrl: this.checkoutUrl(checkout, 'canceled'),
        metadata: { ownerId: `${owner.kind}-${owner.id}` },
        // What `setup_intent.succeeded` needs to save the card, as for `POST /v1/billing/setup-intent`.
        setupIntentMetadata: { ownerKind: owner.kind, ownerId: owner.id },
        idempotencyKey,
      });
      const answer = { url: session.url };
      const events = billingCustomerDecider.decide(
        { type: 'RecordCardSetupSession', sessionId: session.id, now: this.clock.now() },
        billingCustomerDecider.initialState,
      );
      await this.store.appendAtomically([
        { streamId: billingCustomerStreamId(owner.kind, owner.id), events, expected: revision },
        ...(await IdempotentRequest.recordAnswer(answer)),
      ]);
      return answer;
    });
  }

  private checkoutUrl({ listingId, releaseId, approvalId }: CheckoutReturn, card: 'added' | 'canceled'): string {
    const url = new URL(`/checkout/${listingId}`, this.config.webUrl);
    if (releaseId) url.searchParams.set('releaseId', releaseId);
    if (approvalId) url.searchParams.set('approvalId', approvalId);
    url.searchParams.set('card', card);
    return url.toString();
  }
}
