import { Decider } from '../../../event-store/fold-stream';
import { derivedId } from '../../../platform/ids';
import { BillingEvents } from '../events';
import { CardPaymentMethod } from './payment-gateway';

/**
 * An owner's customer at the processor (stream `billing-customer-<owner kind>-<owner id>`):
 * created once, even when two requests race for it, and the cards saved through setup intents.
 */
export type BillingCustomerEvent =
  | {
      type: typeof BillingEvents.ProcessorCustomerCreated;
      data: { ownerKind: string; ownerId: string; customerId: string; createdAt: string };
    }
  | { type: typeof BillingEvents.SetupIntentOpened; data: { setupIntentId: string; openedAt: string } }
  | { type: typeof BillingEvents.CardSetupSessionOpened; data: { sessionId: string; openedAt: string } }
  | { type: typeof BillingEvents.PaymentMethodSaved; data: CardPaymentMethod & { setupIntentId: string; savedAt: string } }
  | { type: typeof BillingEvents.PaymentMethodRemoved; data: { paymentMethodId: string; removedAt: string } };

export type DecidedBillingCustomerEvent = BillingCustomerEvent & { eventId?: string };

export interface BillingCustomerState {
  customerId: string | null;
  /** Newest last; the newest is the one auto top-ups charge. */
  paymentMethods: CardPaymentMethod[];
}

export type BillingCustomerCommand =
  | { type: 'RecordCustomer'; ownerKind: string; ownerId: string; customerId: string; now: Date }
  | { type: 'RecordSetupIntent'; setupIntentId: string; now: Date }
  | { type: 'RecordCardSetupSession'; sessionId: string; now: Date }
  | { type: 'SavePaymentMethod'; setupIntentId: string; method: CardPaymentMethod; now: Date }
  | { type: 'RemovePaymentMethod'; paymentMethodId: string; now: Date };

export const billingCustomerStreamId = (ownerKind: string, ownerId: string): string => `billing-customer-${ownerKind}-${ownerId}`;

function decide(command: BillingCustomerCommand, state: BillingCustomerState): DecidedBillingCustomerEvent[] {
  const at = command.now.toISOString();
  switch (command.type) {
    case 'RecordCustomer':
      if (state.customerId) return [];
      return [
        {
          type: BillingEvents.ProcessorCustomerCreated,
          data: { ownerKind: command.ownerKind, ownerId: command.ownerId, customerId: command.customerId, createdAt: at },
        },
      ];
    case 'RecordSetupIntent':
      return [{ type: BillingEvents.SetupIntentOpened, data: { setupIntentId: command.setupIntentId, openedAt: at } }];
    case 'RecordCardSetupSession':
      return [{ type: BillingEvents.CardSetupSessionOpened, data: { sessionId: command.sessionId, openedAt: at } }];
    case 'SavePaymentMethod':
      if (state.paymentMethods.some((method) => method.id === command.method.id)) return [];
      return [
        {
          eventId: derivedId(BillingEvents.PaymentMethodSaved, command.setupIntentId, command.method.id),
          type: BillingEvents.PaymentMethodSaved,
          data: { ...command.method, setupIntentId: command.setupIntentId, savedAt: at },
        },
      ];
    case 'RemovePaymentMethod':
      if (!state.paymentMethods.some((method) => method.id === command.paymentMethodId)) return [];
      return [
        {
          eventId: derivedId(BillingEvents.PaymentMethodRemoved, command.paymentMethodId),
          type: BillingEvents.PaymentMethodRemoved,
          data: { paymentMethodId: command.paymentMethodId, removedAt: at },
        },
      ];
  }
}

function evolve(state: BillingCustomerState, event: BillingCustomerEvent): BillingCustomerState {
  switch (event.type) {
    case BillingEvents.ProcessorCustomerCreated:
      return { ...state, customerId: event.data.customerId };
    case BillingEvents.PaymentMethodSaved: {
      const { id, brand, last4, expMonth, expYear } = event.data;
      return { ...state, paymentMethods: [...state.paymentMethods, { id, brand, last4, expMonth, expYear }] };
    }
    case BillingEvents.PaymentMethodRemoved:
      return { ...state, paymentMethods: state.paymentMethods.filter((method) => method.id !== event.data.paymentMethodId) };
    default:
      return state;
  }
}

export const billingCustomerDecider: Decider<BillingCustomerCommand, BillingCustomerState, DecidedBillingCustomerEvent> = {
  decide,
  evolve,
  initialState: { customerId: null, paymentMethods: [] },
};
