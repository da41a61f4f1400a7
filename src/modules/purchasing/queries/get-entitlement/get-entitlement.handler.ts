import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { isUuid } from '../../../../platform/ids';
import { ENTITLEMENT_COLUMNS, entitlementOf, EntitlementView } from '../../read-models/purchase-rows';
import { GetEntitlementQuery } from './get-entitlement.query';

@QueryHandler(GetEntitlementQuery)
export class GetEntitlementHandler implements IQueryHandler<GetEntitlementQuery, EntitlementView | null> {
  constructor(private readonly dataSource: DataSource) {}

  async execute({ userId, listingId }: GetEntitlementQuery): Promise<EntitlementView | null> {
    if (!isUuid(listingId)) return null;
    const [row] = await this.dataSource.query(
      `SELECT ${ENTITLEMENT_COLUMNS} FROM entitlements
        WHERE (user_id = $1 OR user_id IN (SELECT org_id FROM org_members WHERE user_id = $1)) AND listing_id = $2
        ORDER BY user_id = $1 DESC LIMIT 1`,
      [userId, listingId],
    );
    return row ? entitlementOf(row) : null;
  }
}
