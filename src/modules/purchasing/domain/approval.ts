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
}

export type ApprovalEvent =
  | {
      type: typeof PurchasingEvents.PurchaseApprovalRequested;
      data: {
        approvalId: string;
        /** Who asked (the token's user) and who decides (the policy's owner). */
        requesterId: string;
        ownerId: string;
        tokenId: string | null;
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

/** The approval its owner may still decide; anyone else's, or an unknown one, does not exist to them. */
export function decidableBy(state: ApprovalState, userId: string, now: Date): Exclude<ApprovalState, { status: 'none' }> {
  if (state.status === 'none' || state.request.ownerId !== userId) throw new DomainError('not_found', 'Approval not found');
  if (state.status !== 'pending') throw new DomainError('conflict', `This approval was already ${state.status}`);
  if (now.getTime() > Date.parse(state.request.expiresAt))
    throw new DomainError('conflict', 'This approval has expired (approvals last 24 hours): ask the agent to purchase again');
  return state;
}
