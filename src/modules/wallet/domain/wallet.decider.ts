import { Decider } from '../../../event-store/fold-stream';
import { DomainError } from '../../../platform/errors/domain-error';
import { derivedId } from '../../../platform/ids';
import { WalletEvents } from '../events';
import { TOP_UP_MAX_CENTS, TOP_UP_MIN_CENTS } from './wallet-owner';

/**
 * A wallet (stream `wallet-<owner kind>-<owner id>`): a ledger of integer
 * cents whose balance never goes below zero. Appends at the revision read, so
 * two debits racing for the last cents cannot both commit. Every money event
 * carries its signed `amountCents` and the `balanceAfterCents` it leaves, and
 * an id derived from its cause.
 */
export type TopUpSource = 'top_up' | 'auto_top_up';
export type DebitReason = 'purchase' | 'metered_usage';

export type AutoTopUpSettings = {
  enabled: boolean;
  thresholdCents: number;
  amountCents: number;
};

export type WalletEvent =
  | {
      type: typeof WalletEvents.WalletToppedUp;
      data: {
        topUpId: string;
        paymentIntentId: string;
        source: TopUpSource;
        amountCents: number;
        balanceAfterCents: number;
        toppedUpAt: string;
      };
    }
  | {
      type: typeof WalletEvents.WalletDebited;
      data: {
        debitId: string;
        reason: DebitReason;
        description: string;
        /** Negative. */
        amountCents: number;
        balanceAfterCents: number;
        /** Ids of what the money paid for (a purchase, an order, a usage record). */
        reference: Record<string, string>;
        debitedAt: string;
      };
    }
  | {
      type: typeof WalletEvents.WalletCredited;
      data: {
        creditId: string;
        reason: 'refund';
        description: string;
        amountCents: number;
        balanceAfterCents: number;
        reference: Record<string, string>;
        creditedAt: string;
      };
    }
  | { type: typeof WalletEvents.AutoTopUpConfigured; data: AutoTopUpSettings & { configuredAt: string } }
  | {
      type: typeof WalletEvents.AutoTopUpRequested;
      data: { topUpId: string; amountCents: number; balanceCents: number; requestedAt: string };
    }
  | { type: typeof WalletEvents.AutoTopUpFailed; data: { topUpId: string; reason: string; failedAt: string } };

/** Decided events carry their id: the event store treats a re-append of a stored id as a no-op. */
export type DecidedWalletEvent = WalletEvent & { eventId: string };

export interface WalletState {
  balanceCents: number;
  autoTopUp: AutoTopUpSettings;
  /** The auto top-up being charged, if any: no second one is asked for until it settles or fails. */
  autoTopUpInFlight: string | null;
}

/** What a wallet with no history reads: empty, auto top-up off, with the defaults enabling it would use. */
export const DEFAULT_AUTO_TOP_UP: AutoTopUpSettings = { enabled: false, thresholdCents: 500, amountCents: 2_000 };

export const initialWalletState: WalletState = {
  balanceCents: 0,
  autoTopUp: DEFAULT_AUTO_TOP_UP,
  autoTopUpInFlight: null,
};

export type WalletCommand =
  | {
      type: 'CreditTopUp';
      topUpId: string;
      paymentIntentId: string;
      source: TopUpSource;
      amountCents: number;
      now: Date;
    }
  | {
      type: 'Debit';
      debitId: string;
      amountCents: number;
      reason: DebitReason;
      description: string;
      reference: Record<string, string>;
      now: Date;
    }
  | {
      type: 'Refund';
      creditId: string;
      amountCents: number;
      description: string;
      reference: Record<string, string>;
      now: Date;
    }
  | {
      type: 'ConfigureAutoTopUp';
      enabled?: boolean;
      thresholdCents?: number;
      amountCents?: number;
      /** Whether the owner has a saved payment method the auto top-up can charge. */
      hasPaymentMethod: boolean;
      now: Date;
    }
  | { type: 'FailAutoTopUp'; topUpId: string; reason: string; now: Date };

/** A wallet purchase or usage charge that needs more than the balance: 402 with both amounts. */
export class InsufficientBalanceError extends DomainError {
  constructor(
    readonly balanceCents: number,
    readonly requiredCents: number,
  ) {
    super('payment_required', `Insufficient wallet balance: ${balanceCents} cents available, ${requiredCents} cents required`, {
      status: 'insufficient_balance',
      balanceCents,
      requiredCents,
    });
  }
}

/** The auto top-up a debit may cause takes its id from the debit, so a retried debit asks for the same one. */
export const autoTopUpIdFor = (debitId: string): string => derivedId('AutoTopUp', debitId);

function decide(command: WalletCommand, state: WalletState): DecidedWalletEvent[] {
  switch (command.type) {
    case 'CreditTopUp': {
      assertPositiveCents(command.amountCents);
      return [
        {
          eventId: derivedId(WalletEvents.WalletToppedUp, command.topUpId),
          type: WalletEvents.WalletToppedUp,
          data: {
            topUpId: command.topUpId,
            paymentIntentId: command.paymentIntentId,
            source: command.source,
            amountCents: command.amountCents,
            balanceAfterCents: state.balanceCents + command.amountCents,
            toppedUpAt: command.now.toISOString(),
          },
        },
      ];
    }
    case 'Debit': {
      assertPositiveCents(command.amountCents);
      if (command.amountCents > state.balanceCents) throw new InsufficientBalanceError(state.balanceCents, command.amountCents);
      const balanceAfterCents = state.balanceCents - command.amountCents;
      const debited: DecidedWalletEvent = {
        eventId: derivedId(WalletEvents.WalletDebited, command.debitId),
        type: WalletEvents.WalletDebited,
        data: {
          debitId: command.debitId,
          reason: command.reason,
          description: command.description,
          amountCents: -command.amountCents,
          balanceAfterCents,
          reference: command.reference,
          debitedAt: command.now.toISOString(),
        },
      };
      const { autoTopUp } = state;
      if (!autoTopUp.enabled || balanceAfterCents >= autoTopUp.thresholdCents || state.autoTopUpInFlight) return [debited];
      const topUpId = autoTopUpIdFor(command.debitId);
      return [
        debited,
        {
          eventId: derivedId(WalletEvents.AutoTopUpRequested, topUpId),
          type: WalletEvents.AutoTopUpRequested,
          data: {
            topUpId,
            amountCents: autoTopUp.amountCents,
            balanceCents: balanceAfterCents,
            requestedAt: command.now.toISOString(),
          },
        },
      ];
    }
    case 'Refund': {
      assertPositiveCents(command.amountCents);
      return [
        {
          eventId: derivedId(WalletEvents.WalletCredited, command.creditId),
          type: WalletEvents.WalletCredited,
          data: {
            creditId: command.creditId,
            reason: 'refund',
            description: command.description,
            amountCents: command.amountCents,
            balanceAfterCents: state.balanceCents + command.amountCents,
            reference: command.reference,
            creditedAt: command.now.toISOString(),
          },
        },
      ];
    }
    case 'ConfigureAutoTopUp': {
      const settings: AutoTopUpSettings = {
        enabled: command.enabled ?? state.autoTopUp.enabled,
        thresholdCents: command.thresholdCents ?? state.autoTopUp.thresholdCents,
        amountCents: command.amountCents ?? state.autoTopUp.amountCents,
      };
      if (settings.enabled && !command.hasPaymentMethod)
        throw new DomainError(
          'unprocessable',
          'Auto top-up needs a saved payment method: add one through POST /v1/billing/setup-intent first',
        );
      if (!Number.isSafeInteger(settings.thresholdCents) || settings.thresholdCents < 0)
        throw new DomainError('invalid', 'thresholdCents must be an integer of at least 0');
      if (
        !Number.isSafeInteger(settings.amountCents) ||
        settings.amountCents < TOP_UP_MIN_CENTS ||
        settings.amountCents > TOP_UP_MAX_CENTS
      )
        throw new DomainError('invalid', `amountCents must be an integer from ${TOP_UP_MIN_CENTS} to ${TOP_UP_MAX_CENTS}`);
      const unchanged =
        settings.enabled === state.autoTopUp.enabled &&
        settings.thresholdCents === state.autoTopUp.thresholdCents &&
        settings.amountCents === state.autoTopUp.amountCents;
      if (unchanged) return [];
      return [
        {
          eventId: derivedId(WalletEvents.AutoTopUpConfigured, command.now.toISOString(), JSON.stringify(settings)),
          type: WalletEvents.AutoTopUpConfigured,
          data: { ...settings, configuredAt: command.now.toISOString() },
        },
      ];
    }
    case 'FailAutoTopUp': {
      if (state.autoTopUpInFlight !== command.topUpId) return [];
      return [
        {
          eventId: derivedId(WalletEvents.AutoTopUpFailed, command.topUpId),
          type: WalletEvents.AutoTopUpFailed,
          data: { topUpId: command.topUpId, reason: command.reason, failedAt: command.now.toISOString() },
        },
      ];
    }
  }
}

function evolve(state: WalletState, event: WalletEvent): WalletState {
  switch (event.type) {
    case WalletEvents.WalletToppedUp:
      return {
        ...state,
        balanceCents: event.data.balanceAfterCents,
        autoTopUpInFlight: state.autoTopUpInFlight === event.data.topUpId ? null : state.autoTopUpInFlight,
      };
    case WalletEvents.WalletDebited:
    case WalletEvents.WalletCredited:
      return { ...state, balanceCents: event.data.balanceAfterCents };
    case WalletEvents.AutoTopUpConfigured: {
      const { enabled, thresholdCents, amountCents } = event.data;
      return { ...state, autoTopUp: { enabled, thresholdCents, amountCents } };
    }
    case WalletEvents.AutoTopUpRequested:
      return { ...state, autoTopUpInFlight: event.data.topUpId };
    case WalletEvents.AutoTopUpFailed:
      return { ...state, autoTopUpInFlight: state.autoTopUpInFlight === event.data.topUpId ? null : state.autoTopUpInFlight };
    default:
      return state;
  }
}

function assertPositiveCents(amountCents: number): void {
  if (!Number.isSafeInteger(amountCents) || amountCents <= 0)
    throw new DomainError('invalid', 'amountCents must be a positive integer number of cents');
}

export const walletDecider: Decider<WalletCommand, WalletState, DecidedWalletEvent> = {
  decide,
  evolve: (state, event) => evolve(state, event),
  initialState: initialWalletState,
  // Wallets may hold millions of transactions; a decision reads at most this many events past the snapshot.
  snapshot: { version: 1, every: 100 },
};
