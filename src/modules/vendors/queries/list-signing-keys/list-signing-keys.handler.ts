import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { VendorsReader } from '../../read-models/vendors.reader';
import { ListSigningKeysQuery, SigningKeyList } from './list-signing-keys.query';

@QueryHandler(ListSigningKeysQuery)
export class ListSigningKeysHandler implements IQueryHandler<ListSigningKeysQuery, SigningKeyList> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly vendors: VendorsReader,
  ) {}

  async execute({ vendorId }: ListSigningKeysQuery): Promise<SigningKeyList> {
    await this.vendors.require(vendorId);
    const [active] = await this.dataSource.query(
      `SELECT public_key, fingerprint FROM vendor_signing_keys WHERE vendor_id = $1 AND status = 'active'`,
      [vendorId],
    );
    const log = await this.dataSource.query(
      'SELECT action, fingerprint, created_at FROM vendor_signing_key_log WHERE vendor_id = $1 ORDER BY id DESC',
      [vendorId],
    );
    return {
      activeKey: active ? { publicKey: active.public_key, fingerprint: active.fingerprint } : null,
      log: log.map((row: { action: SigningKeyList['log'][number]['action']; fingerprint: string; created_at: Date }) => ({
        action: row.action,
        fingerprint: row.fingerprint,
        createdAt: new Date(row.created_at).toISOString(),
      })),
    };
  }
}
