import { Query } from '@nestjs/cqrs';

export interface ApprovalView {
  id: string;
  /** `expired` once 24 hours passed undecided. */
  status: 'pending' | 'approved' | 'declined' | 'expired';
  requesterId: string;
  tokenName: string | null;
  policyId: string;
  rule: string;
  reason: string;
  listingId: string;
  releaseId: string;
  listingTitle: string;
  vendorSlug: string;
  version: string;
  priceCents: number;
  useWallet: boolean;
  orderId: string | null;
  requestedAt: string;
  expiresAt: string;
}

/** The approvals waiting for the owner, newest first. */
export class ListApprovalsQuery extends Query<ApprovalView[]> {
  constructor(readonly ownerId: string) {
    super();
  }
}

/** One of the owner's approvals, whatever its state; anyone else's is not found. */
export class GetApprovalQuery extends Query<ApprovalView> {
  constructor(
    readonly ownerId: string,
    readonly approvalId: string,
  ) {
    super();
  }
}
