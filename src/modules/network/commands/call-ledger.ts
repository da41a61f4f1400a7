import { Injectable } from '@nestjs/common';
import { EventStore, StreamAppend } from '../../../event-store/event-store';
import { expectedAt, foldStream, retryOnConflict } from '../../../event-store/fold-stream';
import { Clock } from '../../../platform/clock/clock';
import { WalletLedger } from '../../wallet/commands/wallet-ledger';
import { walletDecider } from '../../wallet/domain/wallet.decider';
import { userWallet } from '../../wallet/domain/wallet-owner';
import {
  CallFacts,
  CallOutcome,
  DecidedServiceCallEvent,
  serviceCallDecider,
  ServiceCallState,
  serviceCallStreamId,
} from '../domain/service-call.decider';

type FoldedCall = { state: ServiceCallState; revision: number };

/**
 * Reservation and settlement of metered calls, each one atomic append: the
 * call's stream with the caller's wallet. The reservation debits the cost
 * (`metered_usage`) before the upstream call; a settlement that is not a
 * success gives it back as a `refund` credit in the same append that records
 * the outcome, so a call is charged once or not at all.
 */
@Injectable()
export class CallLedger {
  constructor(
    private readonly store: EventStore,
    private readonly wallets: WalletLedger,
    private readonly clock: Clock,
  ) {}

  fold(callId: string): Promise<FoldedCall> {
    return foldStream<ServiceCallState, DecidedServiceCallEvent>(
      this.store,
      serviceCallStreamId(callId),
      serviceCallDecider.evolve,
      serviceCallDecider.initialState,
    );
  }

  /** Appends the reservation and the debit; 402 `insufficient_balance` appends nothing. Answers the balance left. */
  async reserve(facts: CallFacts, settleBy: Date, description: string): Promise<number> {
    const owner = userWallet(facts.callerId);
    // The call id is new (random, or one its Idempotency-Key has not used): its stream is read only after a lost race.
    let known: FoldedCall | null = { state: serviceCallDecider.initialState, revision: -1 };
    const reserve = () =>
      retryOnConflict(async () => {
        const now = this.clock.now();
        const call = known ?? (await this.fold(facts.callId));
        known = null;
        const reserved = serviceCallDecider.decide({ type: 'Reserve', facts, settleBy, now }, call.state);
        const wallet = await this.wallets.fold(owner);
        const appends: StreamAppend[] = [
          { streamId: serviceCallStreamId(facts.callId), events: reserved, expected: expectedAt(call.revision) },
        ];
        let balance = wallet.state.balanceCents;
        if (facts.costCents > 0) {
          const debited = walletDecider.decide(
            {
              type: 'Debit',
              debitId: facts.callId,
              amountCents: facts.costCents,
              reason: 'metered_usage',
              description,
              reference: { usageRecordId: facts.callId, listingId: facts.listingId },
              now,
            },
            wallet.state,
          );
          appends.push(this.wallets.appendOf(owner, wallet, debited));
          balance = debited.reduce(walletDecider.evolve, wallet.state).balanceCents;
        }
        await this.store.appendAtomically(appends);
        return balance;
      });
    return facts.costCents > 0 ? this.wallets.exclusively(owner, reserve) : reserve();
  }

  /**
   * Settles a reserved call once. A success keeps the debit and appends
   * `extra` (the Idempotency-Key's recorded answer) with it; any other
   * outcome refunds the cost. Answers the call's settled outcome: another
   * settlement may have come first (the saga's `abandoned`).
   */
  async settle(
    callId: string,
    outcome: CallOutcome,
    durationMs: number,
    error: string | null,
    extra: () => Promise<StreamAppend[]> = async () => [],
  ): Promise<CallOutcome | null> {
    let known: FoldedCall | null = await this.fold(callId);
    const { state } = known;
    if (state.status !== 'reserved') return state.status === 'settled' ? state.outcome : null;
    const owner = userWallet(state.facts.callerId);
    const refunds = outcome !== 'success' && state.facts.costCents > 0;
    const settle = () =>
      retryOnConflict(async () => {
        const now = this.clock.now();
        // The first attempt decides on the fold above; a lost race (the saga settled it, say) reads again.
        const call = known ?? (await this.fold(callId));
        known = null;
        if (call.state.status !== 'reserved') return call.state.status === 'settled' ? call.state.outcome : null;
        const settled = serviceCallDecider.decide({ type: 'Settle', outcome, durationMs, error, now }, call.state);
        const appends: StreamAppend[] = [
          { streamId: serviceCallStreamId(callId), events: settled, expected: expectedAt(call.revision) },
        ];
        if (refunds) {
          const wallet = await this.wallets.fold(owner);
          const credited = walletDecider.decide(
            {
              type: 'Refund',
              creditId: callId,
              amountCents: call.state.facts.costCents,
              description: `Released: the ${call.state.facts.tool} call did not succeed (${outcome})`,
              reference: { usageRecordId: callId, listingId: call.state.facts.listingId },
              now,
            },
            wallet.state,
          );
          appends.push(this.wallets.appendOf(owner, wallet, credited));
        } else appends.push(...(await extra()));
        await this.store.appendAtomically(appends);
        return outcome;
      });
    return refunds ? this.wallets.exclusively(owner, settle) : settle();
  }
}
