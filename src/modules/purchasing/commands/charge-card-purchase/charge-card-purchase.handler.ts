import { CommandBus, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { EventStore, StreamAppend, WrongExpectedVersionError } from '../../../../event-store/event-store';

import { Clock } from '../../../../platform/clock/clock';
import { derivedId } from '../../../../platform/ids';
import { ChargeSavedMethodCommand } from '../../../billing/commands/charge-saved-method/charge-saved-method.command';
import { orderStreamId } from '../../domain/purchase';
import { PurchasingEvents } from '../../events';
import { foldOrder } from '../purchase-streams';
import { FailCardPurchaseCommand } from '../fail-card-purchase/fail-card-purchase.command';
import { CardChargeOutcome, ChargeCardPurchaseCommand } from './charge-card-purchase.command';

@CommandHandler(ChargeCardPurchaseCommand)
export class ChargeCardPurchaseHandler implements ICommandHandler<ChargeCardPurchaseCommand, CardChargeOutcome> {
  constructor(
    private readonly store: EventStore,
    private readonly commands: CommandBus,
    private readonly clock: Clock,
  ) {}

  async execute({ orderId, alongside }: ChargeCardPurchaseCommand): Promise<CardChargeOutcome> {
    const order = await foldOrder(this.store, orderId);
    if (order.state.status === 'none' || order.state.made.fundingSource !== 'card')
      return { charged: false, reason: 'No such card order' };
    if (order.state.status === 'failed') return { charged: false, reason: 'The payment for this order failed' };
    if (order.state.status === 'paid' || order.state.paymentIntentId)
      return this.chargedElsewhere((await alongside?.charged()) ?? []);
    const made = order.state.made;
    const intent = await this.commands.execute(
      new ChargeSavedMethodCommand(
        made.buyer,
        made.amountCents,
        { orderId, purpose: 'purchase', listingId: made.listingId },
        `${made.listingTitle} ${made.version}`,
        orderId,
      ),
    );
    if (intent.status === 'failed') {
      const reason = `The card was declined: ${intent.failureMessage ?? 'no reason given'}`;
      await this.commands.execute(
        new FailCardPurchaseCommand(orderId, intent.id || null, reason, (await alongside?.declined(reason)) ?? []),
      );
      return { charged: false, reason };
    }
    // `any`: the processor's webhook may have paid the order already; the id makes a second record a no-op.
    const charged: StreamAppend = {
      streamId: orderStreamId(orderId),
      events: [
        {
          eventId: derivedId(PurchasingEvents.OrderCharged, orderId),
          type: PurchasingEvents.OrderCharged,
          data: { orderId, paymentIntentId: intent.id, chargedAt: this.clock.now().toISOString() },
        },
      ],
      expected: 'any',
    };
    const answered = (await alongside?.charged()) ?? [];
    try {
      await this.store.appendAtomically([charged, ...answered]);
    } catch (error) {
      // The request and the card-purchase saga charge the same order: the other one recorded the charge first.
      if (!(error instanceof WrongExpectedVersionError) || answered.length === 0) throw error;
      const { state } = await foldOrder(this.store, orderId);
      if (state.status === 'none' || !state.paymentIntentId) throw error;
      return this.chargedElsewhere(answered);
    }
    return { charged: true };
  }

  /** The charge is recorded already (by the card-purchase saga, or the request): only the request's answer is left. */
  private async chargedElsewhere(answered: StreamAppend[]): Promise<CardChargeOutcome> {
    if (answered.length > 0) await this.store.appendAtomically(answered);
    return { charged: true };
  }
}
