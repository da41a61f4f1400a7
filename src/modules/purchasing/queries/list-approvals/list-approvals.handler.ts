import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { Clock } from '../../../../platform/clock/clock';
import { DomainError } from '../../../../platform/errors/domain-error';
import { isUuid } from '../../../../platform/ids';
import { ApprovalView, GetApprovalQuery, ListApprovalsQuery } from './list-approvals.query';

const COLUMNS = `id, status, requester_id, policy_id, rule, reason, listing_id, release_id, listing_title, vendor_slug, version,
  price_cents, use_wallet, order_id, requested_at, expires_at, token_name`;

function approvalOf(row: Record<string, unknown>, now: Date): ApprovalView {
  const expiresAt = new Date(row.expires_at as string);
  const expired = row.status === 'pending' && now.getTime() > expiresAt.getTime();
  return {
    id: row.id as string,
    status: expired ? 'expired' : (row.status as ApprovalView['status']),
    requesterId: row.requester_id as string,
    tokenName: (row.token_name as string | null) ?? null,
    policyId: row.policy_id as string,
    rule: row.rule as string,
    reason: row.reason as string,
    listingId: row.listing_id as string,
    releaseId: row.release_id as string,
    listingTitle: row.listing_title as string,
    vendorSlug: row.vendor_slug as string,
    version: row.version as string,
    priceCents: Number(row.price_cents),
    useWallet: row.use_wallet as boolean,
    orderId: (row.order_id as string | null) ?? null,
    requestedAt: new Date(row.requested_at as string).toISOString(),
    expiresAt: expiresAt.toISOString(),
  };
}

/** An org's approvals are owned by the org; its admins and owners see and decide them. */
const ADMIN_ORGS = "SELECT org_id FROM org_members WHERE user_id = $1 AND role IN ('owner', 'admin')";

@QueryHandler(ListApprovalsQuery)
export class ListApprovalsHandler implements IQueryHandler<ListApprovalsQuery, ApprovalView[]> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {}

  async execute({ ownerId }: ListApprovalsQuery): Promise<ApprovalView[]> {
    const now = this.clock.now();
    const rows = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM purchase_approvals WHERE (owner_id = $1 OR owner_id IN (${ADMIN_ORGS})) AND status = 'pending' AND expires_at >= $2
        ORDER BY requested_at DESC, id LIMIT 200`,
      [ownerId, now],
    );
    return rows.map((row: Record<string, unknown>) => approvalOf(row, now));
  }
}

@QueryHandler(GetApprovalQuery)
export class GetApprovalHandler implements IQueryHandler<GetApprovalQuery, ApprovalView> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {}

  async execute({ ownerId, approvalId }: GetApprovalQuery): Promise<ApprovalView> {
    if (!isUuid(approvalId)) throw new DomainError('not_found', 'Approval not found');
    const [row] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM purchase_approvals WHERE id = $1 AND (owner_id = $2 OR owner_id IN (${ADMIN_ORGS.replace('$1', '$2')}))`,
      [approvalId, ownerId],
    );
    if (!row) throw new DomainError('not_found', 'Approval not found');
    return approvalOf(row, this.clock.now());
  }
}
