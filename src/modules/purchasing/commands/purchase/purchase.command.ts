import { Command } from '@nestjs/cqrs';
import { PurchaseChannel } from '../../domain/purchase';

export type PurchaseAnswer =
  | { status: 'purchased'; entitlementId: string; orderId: string; amountCents: number; walletBalanceCents?: number }
  | { status: 'already_owned'; entitlementId: string };

export interface PurchaseRequest {
  listingId: string;
  releaseId?: string;
  maxPriceCents?: number;
  useWallet?: boolean;
  orgSlug?: string;
  channel?: PurchaseChannel;
}

/** The token a purchase is made with: its spend policy is enforced before any money moves. */
export interface PurchaseCaller {
  tokenId: string | null;
  policyId: string | null;
  /** Shown to the policy's owner when the purchase waits for approval. */
  tokenName?: string | null;
}

/** Buys a listing for the caller: free, from the wallet, or by card. */
export class PurchaseCommand extends Command<PurchaseAnswer> {
  constructor(
    readonly userId: string,
    readonly request: PurchaseRequest,
    readonly caller: PurchaseCaller = { tokenId: null, policyId: null },
    /** Set when the policy's owner approved this purchase: executed once, on the approved terms. */
    readonly approvalId?: string,
  ) {
    super();
  }
}
