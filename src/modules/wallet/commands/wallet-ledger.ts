import { Injectable } from '@nestjs/common';
import { EventStore, StreamAppend } from '../../../event-store/event-store';
import { expectedAt, foldStream, RecentFolds } from '../../../event-store/fold-stream';
import { SnapshotStore } from '../../../event-store/snapshot-store';
import { KeyedMutex } from '../../../platform/concurrency/keyed-mutex';
import { isUuid } from '../../../platform/ids';
import { DecidedTopUpEvent, topUpDecider, TopUpState, topUpStreamId } from '../domain/top-up.decider';
import { DecidedWalletEvent, walletDecider, WalletState } from '../domain/wallet.decider';
import { WalletOwner, walletStreamId } from '../domain/wallet-owner';

/** A wallet's state as decided from its stream (never from a read model), and the revision to append at. */
export interface FoldedWallet {
  state: WalletState;
  revision: number;
}

/** Reads wallets for decisions that also touch other streams in the same atomic append. */
@Injectable()
export class WalletLedger {
  private readonly writers = new KeyedMutex();
  private readonly recent = new RecentFolds();

  constructor(
    private readonly store: EventStore,
    private readonly snapshots: SnapshotStore,
  ) {}

  /**
   * Runs a fold-decide-append on the wallet after the others of this process:
   * parallel debits of one wallet queue here rather than lose races at the
   * store and retry (and, after six lost races, fail with 409).
   */
  exclusively<T>(owner: WalletOwner, work: () => Promise<T>): Promise<T> {
    return this.writers.run(walletStreamId(owner), work);
  }

  /**
   * From the wallet's last fold in this process, else its snapshot: reads at most the decider's `snapshot.every`
   * events, however long the history, and a wallet that decides often reads only what came since its last decision.
   */
  fold(owner: WalletOwner): Promise<FoldedWallet> {
    return foldStream<WalletState, DecidedWalletEvent>(
      this.store,
      walletStreamId(owner),
      walletDecider.evolve,
      walletDecider.initialState,
      { snapshots: this.snapshots, policy: walletDecider.snapshot, recent: this.recent },
    );
  }

  /** Our record of a top-up, and the revision to append at. */
  foldTopUp(topUpId: string): Promise<{ state: TopUpState; revision: number }> {
    return foldStream<TopUpState, DecidedTopUpEvent>(
      this.store,
      topUpStreamId(topUpId),
      topUpDecider.evolve,
      topUpDecider.initialState,
    );
  }

  /** The wallet a top-up funds, or null for a top-up we never recorded. */
  async ownerOfTopUp(topUpId: string | null): Promise<WalletOwner | null> {
    if (!topUpId || !isUuid(topUpId)) return null;
    const [requested] = await this.store.readStream(topUpStreamId(topUpId), { maxCount: 1 });
    return (requested?.data.owner as WalletOwner | undefined) ?? null;
  }

  /** The wallet's part of an atomic append, at the revision it was folded at. */
  appendOf(owner: WalletOwner, folded: FoldedWallet, events: DecidedWalletEvent[]): StreamAppend {
    return { streamId: walletStreamId(owner), events, expected: expectedAt(folded.revision) };
  }
}
