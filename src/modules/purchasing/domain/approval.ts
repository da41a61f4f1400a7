import { DomainError } from '../../../platform/errors/domain-error';
import { PurchasingEvents } from '../events';
import { PurchaseChannel } from './purchase';

/** How long an owner has to decide. */
export const APPROVAL_LIFETIME_MS = 24 * 60 * 60 * 1000;

export interface ApprovalTerms {
  listingId: string;
  releaseId: string;
  priceCents: number;
  useWallet: boolean;
  channel: PurchaseChannel;
  listingTitle: string;
  vendorSlug: string;
  version: string;
  /** Set when bought for an org: the approved purchase is made for it again. */
  orgSlug?: string;
}

export type ApprovalEvent =
  | {
      type: typeof PurchasingEvents.PurchaseApprovalRequested;
      data: {
        approvalId: string;
        /** Who asked (the token's user) and who decides (the policy's owner: a user, or an org whose admins and owners decide). */
        requesterId: string;
        ownerId: string;
        tokenId: string | null;
        /** The asking token's name (absent on approvals requested before it was recorded). */
        tokenName?: string | null;
        policyId: string;
        rule: string;
        reason: string;
        terms: ApprovalTerms;
        requestedAt: string;
        expiresAt: string;
      };
    }
  | { type: typeof PurchasingEvents.PurchaseApprovalApproved; data: { approvalId: string; orderId: string; approvedAt: string } }
  | { type: typeof PurchasingEvents.PurchaseApprovalDeclined; data: { approvalId: string; declinedAt: string } };

export type ApprovalState =
  | { status: 'none' }
  | {
      status: 'pending' | 'approved' | 'declined';
      request: Extract<ApprovalEvent, { type: 'PurchaseApprovalRequested' }>['data'];
      orderId: string | null;
    };

export const approvalStreamId = (approvalId: string): string => `approval-${approvalId}`;

export function evolveApproval(state: ApprovalState, event: ApprovalEvent): ApprovalState {
  switch (event.type) {
    case PurchasingEvents.PurchaseApprovalRequested:
      return { status: 'pending', request: event.data, orderId: null };
    case PurchasingEvents.PurchaseApprovalApproved:
      return state.status === 'none' ? state : { ...state, status: 'approved', orderId: event.data.orderId };
    case PurchasingEvents.PurchaseApprovalDeclined:
      return state.status === 'none' ? state : { ...state, status: 'declined' };
  }
}

/**
 * The approval its owner may still decide; anyone else's, or an unknown one, does not exist to them.
 * `deciderIds`: the caller's user id, and the ids of the orgs it is an admin or owner of.
 */
export function decidableBy(
  state: ApprovalState,
  deciderIds: string | string[],
  now: Date,
): Exclude<ApprovalState, { status: 'none' }> {
  const ids = typeof deciderIds === 'string' ? [deciderIds] : deciderIds;
  if (state.status === 'none' || !ids.includes(state.request.ownerId)) throw new DomainError('not_found', 'Approval not found');
  if (state.status !== 'pending') throw new DomainError('conflict', `This approval was already ${state.status}`);
  if (now.getTime() > Date.parse(state.request.expiresAt))
    throw new DomainError('conflict', 'This approval has expired (approvals last 24 hours): ask the agent to purchase again');
  return state;
}
