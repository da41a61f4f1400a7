import { Decider } from '../../../event-store/fold-stream';
import { DomainError } from '../../../platform/errors/domain-error';
import { derivedId } from '../../../platform/ids';
import { PolicyEvents } from '../events';
import { PolicyOwner, sameOwner } from './policy-owner';
import { evaluatePurchase, PolicyApprovalRequiredError, PolicyPurchaseTerms } from './purchase-evaluation';
import { changedFields, checkedRules, SpendPolicyChanges, SpendPolicyRules } from './spend-policy';
import { addSpend, NO_SPEND, PolicySpend, removeSpend } from './spend-window';

/**
 * A spend policy (stream `policy-<policyId>`): the rules a token bound to it
 * buys under, and what it has spent in the current UTC day and month. Its
 * spend is recorded on this stream in the purchase's own atomic append, at
 * the revision the purchase was decided on, so two purchases racing past a
 * limit cannot both commit: the loser decides again on the fresh total.
 *
 * A card purchase's spend is provisional until the processor confirms the
 * payment: settled then, or given back (released) when the payment fails,
 * each in the order's own atomic append.
 */
export type SpendPolicyEvent =
  | {
      type: typeof PolicyEvents.SpendPolicyCreated;
      data: SpendPolicyRules & { policyId: string; owner: PolicyOwner; createdAt: string };
    }
  | {
      type: typeof PolicyEvents.SpendPolicyUpdated;
      data: SpendPolicyRules & {
        policyId: string;
        owner: PolicyOwner;
        changed: (keyof SpendPolicyRules)[];
        updatedAt: string;
      };
    }
  | { type: typeof PolicyEvents.SpendPolicyDeleted; data: { policyId: string; owner: PolicyOwner; deletedAt: string } }
  | {
      type: typeof PolicyEvents.PolicySpendRecorded;
      data: {
        policyId: string;
        purchaseId: string;
        amountCents: number;
        /** True when the owner approved a purchase the rules would have refused. */
        approved: boolean;
        /** The payment may still fail (a card payment not yet confirmed): the spend may be given back. */
        provisional: boolean;
        recordedAt: string;
      };
    }
  | {
      type: typeof PolicyEvents.PolicySpendReleased;
      data: {
        policyId: string;
        purchaseId: string;
        /** What the spend recorded, given back whole. */
        amountCents: number;
        /** The spend's own time: its UTC day and month are the totals it leaves. */
        recordedAt: string;
        reason: string;
        releasedAt: string;
      };
    }
  | { type: typeof PolicyEvents.PolicySpendSettled; data: { policyId: string; purchaseId: string; settledAt: string } };

/** Decided events may carry their id: a spend's derives from its purchase. */
export type DecidedSpendPolicyEvent = SpendPolicyEvent & { eventId?: string };

export interface LiveSpendPolicy extends SpendPolicyRules {
  status: 'live';
  policyId: string;
  owner: PolicyOwner;
  createdAt: string;
  spend: PolicySpend;
  /**
   * Provisional spends not yet settled or released, by purchase id: the only
   * ones that may be given back. Bounded by the card payments in flight.
   */
  unsettled: Record<string, UnsettledSpend>;
}

export interface UnsettledSpend {
  amountCents: number;
  recordedAt: string;
}

/** Plain JSON and bounded (no list of purchases), as a snapshot needs. */
export type SpendPolicyState = { status: 'none' } | { status: 'deleted'; policyId: string; owner: PolicyOwner } | LiveSpendPolicy;

/** A purchase to record against the policy: its terms and who pays for the exception, if anyone. */
export interface SpendToRecord extends PolicyPurchaseTerms {
  purchaseId: string;
  /**
   * The owner approved this purchase: it is recorded even past the rules,
   * since the approval is the owner's own say-so.
   */
  approved: boolean;
  /** The purchase's payment may still fail (a card payment): its spend stays open to a give-back until settled. */
  provisional: boolean;
}

export type SpendPolicyCommand =
  | { type: 'CreatePolicy'; policyId: string; owner: PolicyOwner; rules: SpendPolicyRules; now: Date }
  /** `owner` is who asks: another owner's policy is not found. */
  | { type: 'UpdatePolicy'; owner: PolicyOwner; changes: SpendPolicyChanges; now: Date }
  | { type: 'DeletePolicy'; owner: PolicyOwner; now: Date }
  | ({ type: 'RecordSpend' } & SpendToRecord)
  /** The purchase's payment failed: give back what its provisional spend recorded, if anything. */
  | { type: 'ReleaseSpend'; purchaseId: string; reason: string; now: Date }
  /** The purchase's payment was confirmed: its provisional spend is final. */
  | { type: 'SettleSpend'; purchaseId: string; now: Date }
  /**
   * A payment confirmed after its purchase had failed and its spend was given
   * back: the money moved after all, so the spend counts again, now, whatever
   * the rules say (nothing can be refused any more).
   */
  | { type: 'RecountSpend'; purchaseId: string; amountCents: number; now: Date };

export const initialSpendPolicyState: SpendPolicyState = { status: 'none' };

export const policyStreamId = (policyId: string): string => `policy-${policyId}`;

/** A spend's event id: the same purchase on the same policy always records the same event. */
export const policySpendEventId = (policyId: string, purchaseId: string): string =>
  derivedId(PolicyEvents.PolicySpendRecorded, policyId, purchaseId);

/** A give-back's id: one per purchase and policy, however often its failure is reported. */
export const policySpendReleaseEventId = (policyId: string, purchaseId: string): string =>
  derivedId(PolicyEvents.PolicySpendReleased, policyId, purchaseId);

const NOT_FOUND = 'Spend policy not found';

function decide(command: SpendPolicyCommand, state: SpendPolicyState): DecidedSpendPolicyEvent[] {
  switch (command.type) {
    case 'CreatePolicy': {
      if (state.status !== 'none') throw new DomainError('conflict', 'This spend policy id is already in use');
      const rules = checkedRules(command.rules);
      return [
        {
          type: PolicyEvents.SpendPolicyCreated,
          data: { policyId: command.policyId, owner: command.owner, ...rules, createdAt: command.now.toISOString() },
        },
      ];
    }
    case 'UpdatePolicy': {
      const policy = ownLivePolicy(state, command.owner);
      const defined = Object.fromEntries(Object.entries(command.changes).filter(([, value]) => value !== undefined));
      const rules = checkedRules({ ...policy, ...defined });
      const changed = changedFields(policy, rules);
      if (changed.length === 0) return [];
      return [
        {
          type: PolicyEvents.SpendPolicyUpdated,
          data: {
            policyId: policy.policyId,
            owner: policy.owner,
            ...rules,
            changed,
            updatedAt: command.now.toISOString(),
          },
        },
      ];
    }
    case 'DeletePolicy': {
      const policy = ownLivePolicy(state, command.owner);
      return [
        {
          type: PolicyEvents.SpendPolicyDeleted,
          data: { policyId: policy.policyId, owner: policy.owner, deletedAt: command.now.toISOString() },
        },
      ];
    }
    case 'RecordSpend': {
      const evaluation = evaluatePurchase(state, command);
      if (!evaluation.allowed && !command.approved) throw new PolicyApprovalRequiredError(evaluation);
      // Nothing to count: a free listing, or a policy that no longer exists (the purchase was approved regardless).
      if (command.priceCents === 0 || state.status !== 'live') return [];
      return [
        {
          eventId: policySpendEventId(state.policyId, command.purchaseId),
          type: PolicyEvents.PolicySpendRecorded,
          data: {
            policyId: state.policyId,
            purchaseId: command.purchaseId,
            amountCents: command.priceCents,
            approved: !evaluation.allowed,
            provisional: command.provisional,
            recordedAt: command.now.toISOString(),
          },
        },
      ];
    }
    case 'ReleaseSpend': {
      // Nothing recorded, already settled or already given back: nothing to give.
      const open = state.status === 'live' ? state.unsettled[command.purchaseId] : undefined;
      if (state.status !== 'live' || !open) return [];
      return [
        {
          eventId: policySpendReleaseEventId(state.policyId, command.purchaseId),
          type: PolicyEvents.PolicySpendReleased,
          data: {
            policyId: state.policyId,
            purchaseId: command.purchaseId,
            amountCents: open.amountCents,
            recordedAt: open.recordedAt,
            reason: command.reason,
            releasedAt: command.now.toISOString(),
          },
        },
      ];
    }
    case 'SettleSpend': {
      if (state.status !== 'live' || !state.unsettled[command.purchaseId]) return [];
      return [
        {
          eventId: derivedId(PolicyEvents.PolicySpendSettled, state.policyId, command.purchaseId),
          type: PolicyEvents.PolicySpendSettled,
          data: { policyId: state.policyId, purchaseId: command.purchaseId, settledAt: command.now.toISOString() },
        },
      ];
    }
    case 'RecountSpend': {
      if (state.status !== 'live' || command.amountCents === 0) return [];
      return [
        {
          // Not the first recording's id: that one is stored, and a re-append of it would record nothing.
          eventId: derivedId(PolicyEvents.PolicySpendRecorded, state.policyId, command.purchaseId, 'recounted'),
          type: PolicyEvents.PolicySpendRecorded,
          data: {
            policyId: state.policyId,
            purchaseId: command.purchaseId,
            amountCents: command.amountCents,
            // Past the rules or not, nobody approved it: the payment simply went through late.
            approved: false,
            provisional: false,
            recordedAt: command.now.toISOString(),
          },
        },
      ];
    }
  }
}

/** Another owner's policy, a deleted one and one never created all read the same: not found. */
function ownLivePolicy(state: SpendPolicyState, owner: PolicyOwner): LiveSpendPolicy {
  if (state.status !== 'live' || !sameOwner(state.owner, owner)) throw new DomainError('not_found', NOT_FOUND);
  return state;
}

function evolve(state: SpendPolicyState, event: SpendPolicyEvent): SpendPolicyState {
  switch (event.type) {
    case PolicyEvents.SpendPolicyCreated: {
      const { policyId, owner, createdAt, ...rules } = event.data;
      return { status: 'live', policyId, owner, createdAt, ...rules, spend: NO_SPEND, unsettled: {} };
    }
    case PolicyEvents.SpendPolicyUpdated: {
      if (state.status !== 'live') return state;
      const { policyId: _policyId, owner: _owner, changed: _changed, updatedAt: _updatedAt, ...rules } = event.data;
      return { ...state, ...rules };
    }
    case PolicyEvents.SpendPolicyDeleted:
      return { status: 'deleted', policyId: event.data.policyId, owner: event.data.owner };
    case PolicyEvents.PolicySpendRecorded: {
      if (state.status !== 'live') return state;
      const { purchaseId, amountCents, recordedAt, provisional } = event.data;
      const spend = addSpend(state.spend, amountCents, new Date(recordedAt));
      if (!provisional) return { ...state, spend };
      return { ...state, spend, unsettled: { ...state.unsettled, [purchaseId]: { amountCents, recordedAt } } };
    }
    case PolicyEvents.PolicySpendReleased: {
      if (state.status !== 'live') return state;
      const { purchaseId, amountCents, recordedAt } = event.data;
      return {
        ...state,
        spend: removeSpend(state.spend, amountCents, new Date(recordedAt)),
        unsettled: withoutPurchase(state.unsettled, purchaseId),
      };
    }
    case PolicyEvents.PolicySpendSettled:
      if (state.status !== 'live') return state;
      return { ...state, unsettled: withoutPurchase(state.unsettled, event.data.purchaseId) };
    default:
      return state;
  }
}

function withoutPurchase(unsettled: Record<string, UnsettledSpend>, purchaseId: string): Record<string, UnsettledSpend> {
  const { [purchaseId]: _gone, ...rest } = unsettled;
  return rest;
}

export const spendPolicyDecider: Decider<SpendPolicyCommand, SpendPolicyState, DecidedSpendPolicyEvent> = {
  decide,
  evolve,
  initialState: initialSpendPolicyState,
  // Every purchase under the policy adds an event; a decision reads at most this many past the snapshot.
  // Version 2: the state keeps the unsettled (card) spends.
  snapshot: { version: 2, every: 100 },
};

/** True when the state is a policy the owner may bind tokens to: its own, and not deleted (active or not). */
export const isLivePolicyOf = (state: SpendPolicyState, owner: PolicyOwner): state is LiveSpendPolicy =>
  state.status === 'live' && sameOwner(state.owner, owner);
