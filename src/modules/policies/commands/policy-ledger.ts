import { Injectable } from '@nestjs/common';
import { EventStore, StreamAppend } from '../../../event-store/event-store';
import { expectedAt, foldStream } from '../../../event-store/fold-stream';
import { SnapshotStore } from '../../../event-store/snapshot-store';
import { evaluatePurchase, PolicyPurchaseTerms, PurchaseEvaluation } from '../domain/purchase-evaluation';
import {
  DecidedSpendPolicyEvent,
  policyStreamId,
  SpendPolicyCommand,
  spendPolicyDecider,
  SpendPolicyState,
  SpendToRecord,
} from '../domain/spend-policy.decider';

/** A policy's state as decided from its stream (never from a read model), and the revision to append at. */
export interface FoldedPolicy {
  policyId: string;
  state: SpendPolicyState;
  revision: number;
}

/**
 * Reads spend policies for decisions that append to other streams in the
 * same atomic append (a purchase). The way to use it, inside
 * `retryOnConflict` so a lost race decides again on fresh totals:
 *
 *   const policy = await ledger.fold(principal.policyId);
 *   const spend = ledger.decideSpend(policy, {
 *     purchaseId: orderId, priceCents, vendorSlug, listingType, approved: false, now,
 *   });
 *   await store.appendAtomically([...purchaseAppends, ...ledger.appendsOf(policy, spend)]);
 *
 * `decideSpend` throws PolicyApprovalRequiredError (402 `approval_required`,
 * with the rule) when the rules refuse a purchase that was not approved. The
 * catalogue's purchase terms carry `priceCents`, `vendorSlug` and
 * `listingType` as the policy reads them.
 */
@Injectable()
export class PolicyLedger {
  constructor(
    private readonly store: EventStore,
    private readonly snapshots: SnapshotStore,
  ) {}

  /** From the policy's snapshot: reads at most the decider's `snapshot.every` events, however many purchases it saw. */
  async fold(policyId: string): Promise<FoldedPolicy> {
    const { state, revision } = await foldStream(
      this.store,
      policyStreamId(policyId),
      spendPolicyDecider.evolve,
      spendPolicyDecider.initialState,
      { snapshots: this.snapshots, policy: spendPolicyDecider.snapshot },
    );
    return { policyId, state, revision };
  }

  /** The judgement alone, for answering before anything is appended (a quote, the 402 of a purchase). */
  evaluate(folded: FoldedPolicy, terms: PolicyPurchaseTerms): PurchaseEvaluation {
    return evaluatePurchase(folded.state, terms);
  }

  /** The spend to record with the purchase: one event, or none for a free listing or a policy that is gone. */
  decideSpend(folded: FoldedPolicy, spend: SpendToRecord): DecidedSpendPolicyEvent[] {
    return spendPolicyDecider.decide({ type: 'RecordSpend', ...spend }, folded.state);
  }

  /**
   * What a card payment's outcome does to the purchase's provisional spend,
   * for the order's own atomic append: a failure gives it back (`ReleaseSpend`),
   * a confirmation settles it (`SettleSpend`), a confirmation after the failure
   * counts it again (`RecountSpend`). None when there is nothing to change, so
   * a redelivered outcome appends nothing.
   */
  decidePaymentOutcome(
    folded: FoldedPolicy,
    command: Extract<SpendPolicyCommand, { type: 'ReleaseSpend' | 'SettleSpend' | 'RecountSpend' }>,
  ): DecidedSpendPolicyEvent[] {
    return spendPolicyDecider.decide(command, folded.state);
  }

  /**
   * The policy's part of an atomic append, at the revision it was folded at:
   * none when there is nothing to record. A purchase that committed meanwhile
   * moves the revision, so this append fails and the caller decides again.
   */
  appendsOf(folded: FoldedPolicy, events: DecidedSpendPolicyEvent[]): StreamAppend[] {
    if (events.length === 0) return [];
    return [
      {
        streamId: policyStreamId(folded.policyId),
        events,
        expected: expectedAt(folded.revision),
      },
    ];
  }
}
