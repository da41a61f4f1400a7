import { Decider } from '../../../event-store/fold-stream';
import { derivedId } from '../../../platform/ids';
import { BillingEvents } from '../events';

/**
 * A vendor's connected account at the processor, the account sales are paid
 * out to (stream `connected-account-<vendorId>`): created once, even when two
 * requests race for it, then onboarded at the processor, which reports its
 * progress with `account.updated`. Onboarding is complete when charges are
 * enabled and the details are submitted.
 */
export type ConnectedAccountEvent =
  | {
      type: typeof BillingEvents.ConnectedAccountCreated;
      data: { vendorId: string; accountId: string; createdAt: string };
    }
  | {
      type: typeof BillingEvents.ConnectedAccountUpdated;
      data: {
        vendorId: string;
        accountId: string;
        chargesEnabled: boolean;
        detailsSubmitted: boolean;
        onboardingComplete: boolean;
        /** The processor event that reported it, and when the processor created that event. */
        processorEventId: string;
        reportedAt: string;
        recordedAt: string;
      };
    };

export type DecidedConnectedAccountEvent = ConnectedAccountEvent & { eventId?: string };

export interface ConnectedAccountState {
  accountId: string | null;
  chargesEnabled: boolean;
  detailsSubmitted: boolean;
  /** When the processor made the newest report applied; older reports arriving late are ignored. */
  reportedAt: string | null;
}

export type ConnectedAccountCommand =
  | { type: 'RecordAccount'; vendorId: string; accountId: string; now: Date }
  | {
      type: 'RecordAccountStatus';
      vendorId: string;
      accountId: string;
      chargesEnabled: boolean;
      detailsSubmitted: boolean;
      processorEventId: string;
      reportedAt: Date;
      now: Date;
    };

export const connectedAccountStreamId = (vendorId: string): string => `connected-account-${vendorId}`;

export const isOnboardingComplete = (flags: { chargesEnabled: boolean; detailsSubmitted: boolean }): boolean =>
  flags.chargesEnabled && flags.detailsSubmitted;

function decide(command: ConnectedAccountCommand, state: ConnectedAccountState): DecidedConnectedAccountEvent[] {
  switch (command.type) {
    case 'RecordAccount':
      // One account per vendor: the first one recorded (or reported) stays.
      if (state.accountId) return [];
      return [
        {
          type: BillingEvents.ConnectedAccountCreated,
          data: { vendorId: command.vendorId, accountId: command.accountId, createdAt: command.now.toISOString() },
        },
      ];
    case 'RecordAccountStatus': {
      // A report about another account (one this vendor never used) changes nothing.
      if (state.accountId !== null && state.accountId !== command.accountId) return [];
      // The processor does not promise delivery in order: the newest report wins.
      if (state.reportedAt !== null && command.reportedAt.getTime() < new Date(state.reportedAt).getTime()) return [];
      const { chargesEnabled, detailsSubmitted } = command;
      return [
        {
          eventId: derivedId(BillingEvents.ConnectedAccountUpdated, command.processorEventId),
          type: BillingEvents.ConnectedAccountUpdated,
          data: {
            vendorId: command.vendorId,
            accountId: command.accountId,
            chargesEnabled,
            detailsSubmitted,
            onboardingComplete: isOnboardingComplete({ chargesEnabled, detailsSubmitted }),
            processorEventId: command.processorEventId,
            reportedAt: command.reportedAt.toISOString(),
            recordedAt: command.now.toISOString(),
          },
        },
      ];
    }
  }
}

function evolve(state: ConnectedAccountState, event: ConnectedAccountEvent): ConnectedAccountState {
  switch (event.type) {
    case BillingEvents.ConnectedAccountCreated:
      return { ...state, accountId: state.accountId ?? event.data.accountId };
    case BillingEvents.ConnectedAccountUpdated:
      return {
        // A report may arrive before our own record of the account (the sandbox completes it a moment after creation).
        accountId: state.accountId ?? event.data.accountId,
        chargesEnabled: event.data.chargesEnabled,
        detailsSubmitted: event.data.detailsSubmitted,
        reportedAt: event.data.reportedAt,
      };
    default:
      return state;
  }
}

export const connectedAccountDecider: Decider<ConnectedAccountCommand, ConnectedAccountState, DecidedConnectedAccountEvent> = {
  decide,
  evolve,
  initialState: { accountId: null, chargesEnabled: false, detailsSubmitted: false, reportedAt: null },
};
