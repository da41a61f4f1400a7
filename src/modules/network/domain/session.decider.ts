import { Decider } from '../../../event-store/fold-stream';
import { DomainError } from '../../../platform/errors/domain-error';
import { derivedId } from '../../../platform/ids';
import { NetworkEvents } from '../events';

export const sessionStreamId = (sessionId: string): string => `session-${sessionId}`;

export type SessionFacts = {
  sessionId: string;
  buyerId: string;
  listingId: string;
  vendorId: string;
  vendorSlug: string;
  listingSlug: string;
  protocol: string | null;
  transport: string | null;
};

/** `outbound`: from the buyer to the vendor; `inbound`: the vendor service's answers. */
export type MessageDirection = 'outbound' | 'inbound';
/** `delivered`: the service took it; `stored`: left in the vendor's inbox; `failed`: the service could not take it. */
export type DeliveryStatus = 'delivered' | 'stored' | 'failed';

export type SessionMessage = {
  messageId: string;
  direction: MessageDirection;
  messageType: string;
  correlationId: string | null;
  payload: Record<string, unknown>;
  deliveryStatus: DeliveryStatus;
  sentAt: string;
};

export type SessionEvent =
  | {
      type: typeof NetworkEvents.SessionOpened;
      data: SessionFacts & { context: Record<string, unknown> | null; settlementMethod: string | null; openedAt: string };
    }
  | { type: typeof NetworkEvents.SessionMessageSent; data: SessionMessage & { sessionId: string } }
  | { type: typeof NetworkEvents.SessionClosed; data: { sessionId: string; closedBy: string; closedAt: string } };

export type DecidedSessionEvent = SessionEvent & { eventId: string };

export type SessionState = { status: 'none' } | { status: 'open' | 'closed'; facts: SessionFacts; messages: number };

export type SessionCommand =
  | {
      type: 'Open';
      facts: SessionFacts;
      context: Record<string, unknown> | null;
      settlementMethod: string | null;
      now: Date;
    }
  | { type: 'Send'; messages: Omit<SessionMessage, 'sentAt'>[]; now: Date }
  | { type: 'Close'; by: string; now: Date };

function decide(command: SessionCommand, state: SessionState): DecidedSessionEvent[] {
  switch (command.type) {
    case 'Open':
      if (state.status !== 'none') return [];
      return [
        {
          eventId: derivedId(NetworkEvents.SessionOpened, command.facts.sessionId),
          type: NetworkEvents.SessionOpened,
          data: {
            ...command.facts,
            context: command.context,
            settlementMethod: command.settlementMethod,
            openedAt: command.now.toISOString(),
          },
        },
      ];
    case 'Send':
      if (state.status === 'none') throw new DomainError('not_found', 'Session not found');
      if (state.status === 'closed') throw new DomainError('conflict', 'The session is closed: it takes no more messages');
      return command.messages.map((message) => ({
        eventId: derivedId(NetworkEvents.SessionMessageSent, message.messageId),
        type: NetworkEvents.SessionMessageSent,
        data: { ...message, sessionId: state.facts.sessionId, sentAt: command.now.toISOString() },
      }));
    case 'Close':
      if (state.status === 'none') throw new DomainError('not_found', 'Session not found');
      if (state.status === 'closed') return [];
      return [
        {
          eventId: derivedId(NetworkEvents.SessionClosed, state.facts.sessionId),
          type: NetworkEvents.SessionClosed,
          data: { sessionId: state.facts.sessionId, closedBy: command.by, closedAt: command.now.toISOString() },
        },
      ];
  }
}

function evolve(state: SessionState, event: SessionEvent): SessionState {
  switch (event.type) {
    case NetworkEvents.SessionOpened: {
      const { context: _c, settlementMethod: _s, openedAt: _o, ...facts } = event.data;
      return { status: 'open', facts, messages: 0 };
    }
    case NetworkEvents.SessionMessageSent:
      return state.status === 'none' ? state : { ...state, messages: state.messages + 1 };
    case NetworkEvents.SessionClosed:
      return state.status === 'none' ? state : { ...state, status: 'closed' };
    default:
      return state;
  }
}

export const sessionDecider: Decider<SessionCommand, SessionState, DecidedSessionEvent> = {
  decide,
  evolve,
  initialState: { status: 'none' },
};
