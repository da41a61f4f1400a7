import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { ENTITLEMENT_COLUMNS, entitlementOf, EntitlementView } from '../../read-models/purchase-rows';
import { ListEntitlementsQuery } from './list-entitlements.query';

@QueryHandler(ListEntitlementsQuery)
export class ListEntitlementsHandler implements IQueryHandler<ListEntitlementsQuery, EntitlementView[]> {
  constructor(private readonly dataSource: DataSource) {}

  async execute({ userId }: ListEntitlementsQuery): Promise<EntitlementView[]> {
    const rows = await this.dataSource.query(
      `SELECT ${ENTITLEMENT_COLUMNS} FROM entitlements
        WHERE user_id = $1 OR user_id IN (SELECT org_id FROM org_members WHERE user_id = $1) ORDER BY granted_at DESC, id`,
      [userId],
    );
    return rows.map(entitlementOf);
  }
}
