import { Decider } from '../../../event-store/fold-stream';
import { derivedId } from '../../../platform/ids';
import { WalletEvents } from '../events';
import { TopUpSource } from './wallet.decider';
import { WalletOwner } from './wallet-owner';

/**
 * Our record of one top-up (stream `top-up-<topUpId>`): which wallet it funds,
 * how much, and the processor's payment intent. The intent carries the
 * `topUpId` in its metadata, and settlement credits the amount recorded here,
 * once, whatever the processor sends afterwards.
 */
export type TopUpEvent =
  | {
      type: typeof WalletEvents.TopUpRequested;
      data: {
        topUpId: string;
        owner: WalletOwner;
        source: TopUpSource;
        amountCents: number;
        /** Null: recorded before the processor is asked, so its webhook always finds the top-up (TopUpCharged names the intent). */
        paymentIntentId: string | null;
        requestedAt: string;
      };
    }
  | { type: typeof WalletEvents.TopUpCharged; data: { topUpId: string; paymentIntentId: string; chargedAt: string } }
  | {
      type: typeof WalletEvents.TopUpSucceeded;
      data: { topUpId: string; paymentIntentId: string; processorEventId: string; amountCents: number; succeededAt: string };
    }
  | {
      type: typeof WalletEvents.TopUpFailed;
      data: {
        topUpId: string;
        paymentIntentId: string | null;
        processorEventId: string | null;
        reason: string;
        failedAt: string;
      };
    };

export type DecidedTopUpEvent = TopUpEvent & { eventId: string };

export type TopUpState =
  | { status: 'none' }
  | {
      status: 'requested' | 'succeeded' | 'failed';
      topUpId: string;
      owner: WalletOwner;
      source: TopUpSource;
      amountCents: number;
      paymentIntentId: string | null;
    };

export type TopUpCommand =
  | {
      type: 'RequestTopUp';
      topUpId: string;
      owner: WalletOwner;
      source: TopUpSource;
      amountCents: number;
      paymentIntentId: string | null;
      now: Date;
    }
  | { type: 'RecordCharge'; paymentIntentId: string; now: Date }
  | { type: 'Succeed'; paymentIntentId: string; processorEventId: string; now: Date }
  | { type: 'Fail'; paymentIntentId: string | null; processorEventId: string | null; reason: string; now: Date };

export const topUpStreamId = (topUpId: string): string => `top-up-${topUpId}`;

/** True when the intent the processor names is the one this top-up recorded (or it recorded none yet). */
export function isIntentOf(state: TopUpState, paymentIntentId: string): boolean {
  return state.status !== 'none' && (state.paymentIntentId === null || state.paymentIntentId === paymentIntentId);
}

function decide(command: TopUpCommand, state: TopUpState): DecidedTopUpEvent[] {
  const at = command.now.toISOString();
  switch (command.type) {
    case 'RequestTopUp':
      if (state.status !== 'none') return [];
      return [
        {
          eventId: derivedId(WalletEvents.TopUpRequested, command.topUpId),
          type: WalletEvents.TopUpRequested,
          data: {
            topUpId: command.topUpId,
            owner: command.owner,
            source: command.source,
            amountCents: command.amountCents,
            paymentIntentId: command.paymentIntentId,
            requestedAt: at,
          },
        },
      ];
    case 'RecordCharge':
      if (state.status === 'none' || state.paymentIntentId !== null) return [];
      return [
        {
          eventId: derivedId(WalletEvents.TopUpCharged, state.topUpId),
          type: WalletEvents.TopUpCharged,
          data: { topUpId: state.topUpId, paymentIntentId: command.paymentIntentId, chargedAt: at },
        },
      ];
    case 'Succeed':
      // A customer may pay an intent after a failed attempt, so a failure is not final; a success is.
      if (state.status === 'none' || state.status === 'succeeded' || !isIntentOf(state, command.paymentIntentId)) return [];
      return [
        {
          eventId: derivedId(WalletEvents.TopUpSucceeded, state.topUpId),
          type: WalletEvents.TopUpSucceeded,
          data: {
            topUpId: state.topUpId,
            paymentIntentId: command.paymentIntentId,
            processorEventId: command.processorEventId,
            amountCents: state.amountCents,
            succeededAt: at,
          },
        },
      ];
    case 'Fail':
      if (state.status !== 'requested') return [];
      if (command.paymentIntentId !== null && !isIntentOf(state, command.paymentIntentId)) return [];
      return [
        {
          eventId: derivedId(WalletEvents.TopUpFailed, state.topUpId, command.processorEventId ?? 'charge'),
          type: WalletEvents.TopUpFailed,
          data: {
            topUpId: state.topUpId,
            paymentIntentId: command.paymentIntentId ?? state.paymentIntentId,
            processorEventId: command.processorEventId,
            reason: command.reason,
            failedAt: at,
          },
        },
      ];
  }
}

function evolve(state: TopUpState, event: TopUpEvent): TopUpState {
  switch (event.type) {
    case WalletEvents.TopUpRequested: {
      const { topUpId, owner, source, amountCents, paymentIntentId } = event.data;
      return { status: 'requested', topUpId, owner, source, amountCents, paymentIntentId };
    }
    case WalletEvents.TopUpCharged:
      return state.status === 'none' ? state : { ...state, paymentIntentId: event.data.paymentIntentId };
    case WalletEvents.TopUpSucceeded:
      return state.status === 'none' ? state : { ...state, status: 'succeeded', paymentIntentId: event.data.paymentIntentId };
    case WalletEvents.TopUpFailed:
      return state.status === 'none' ? state : { ...state, status: 'failed' };
    default:
      return state;
  }
}

export const topUpDecider: Decider<TopUpCommand, TopUpState, DecidedTopUpEvent> = {
  decide,
  evolve,
  initialState: { status: 'none' },
};
