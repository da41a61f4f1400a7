import { Decider } from '../../../event-store/fold-stream';
import { derivedId } from '../../../platform/ids';
import { NetworkEvents } from '../events';

export const serviceCallStreamId = (callId: string): string => `service-call-${callId}`;

/** `success` keeps the charge; every other outcome releases it. `abandoned`: settled by the saga after a crash. */
export type CallOutcome = 'success' | 'upstream_error' | 'timeout' | 'protocol_error' | 'abandoned';

export type CallFacts = {
  callId: string;
  callerId: string;
  listingId: string;
  vendorId: string;
  tool: string;
  costCents: number;
  sessionId: string | null;
};

export type ServiceCallEvent =
  | {
      type: typeof NetworkEvents.ServiceCallReserved;
      data: CallFacts & { settleBy: string; reservedAt: string };
    }
  | {
      type: typeof NetworkEvents.ServiceCalled;
      data: CallFacts & {
        outcome: CallOutcome;
        /** What the caller paid in the end: the cost on success, 0 otherwise. */
        chargedCents: number;
        durationMs: number;
        error: string | null;
        calledAt: string;
      };
    };

export type DecidedServiceCallEvent = ServiceCallEvent & { eventId: string };

export type ServiceCallState =
  | { status: 'none' }
  | { status: 'reserved'; facts: CallFacts; settleBy: string }
  | { status: 'settled'; facts: CallFacts; outcome: CallOutcome; durationMs: number; error: string | null };

export type ServiceCallCommand =
  | { type: 'Reserve'; facts: CallFacts; settleBy: Date; now: Date }
  | { type: 'Settle'; outcome: CallOutcome; durationMs: number; error: string | null; now: Date };

/**
 * A metered call: reserved before the upstream call (with the wallet debit,
 * in one append), settled once after it. A second settlement decides nothing,
 * so the request and the saga that resolves abandoned calls never both settle.
 */
function decide(command: ServiceCallCommand, state: ServiceCallState): DecidedServiceCallEvent[] {
  switch (command.type) {
    case 'Reserve':
      if (state.status !== 'none') return [];
      return [
        {
          eventId: derivedId(NetworkEvents.ServiceCallReserved, command.facts.callId),
          type: NetworkEvents.ServiceCallReserved,
          data: { ...command.facts, settleBy: command.settleBy.toISOString(), reservedAt: command.now.toISOString() },
        },
      ];
    case 'Settle':
      if (state.status !== 'reserved') return [];
      return [
        {
          eventId: derivedId(NetworkEvents.ServiceCalled, state.facts.callId),
          type: NetworkEvents.ServiceCalled,
          data: {
            ...state.facts,
            outcome: command.outcome,
            chargedCents: command.outcome === 'success' ? state.facts.costCents : 0,
            durationMs: command.durationMs,
            error: command.error,
            calledAt: command.now.toISOString(),
          },
        },
      ];
  }
}

function evolve(state: ServiceCallState, event: ServiceCallEvent): ServiceCallState {
  switch (event.type) {
    case NetworkEvents.ServiceCallReserved: {
      const { settleBy, reservedAt: _at, ...facts } = event.data;
      return { status: 'reserved', facts, settleBy };
    }
    case NetworkEvents.ServiceCalled: {
      const { outcome, durationMs, error, chargedCents: _c, calledAt: _t, ...facts } = event.data;
      return { status: 'settled', facts, outcome, durationMs, error };
    }
    default:
      return state;
  }
}

export const serviceCallDecider: Decider<ServiceCallCommand, ServiceCallState, DecidedServiceCallEvent> = {
  decide,
  evolve,
  initialState: { status: 'none' },
};
