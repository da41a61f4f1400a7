import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { DomainError } from '../../../../platform/errors/domain-error';
import { GetPublicSigningKeyQuery, PublicSigningKey } from './get-public-signing-key.query';

@QueryHandler(GetPublicSigningKeyQuery)
export class GetPublicSigningKeyHandler implements IQueryHandler<GetPublicSigningKeyQuery, PublicSigningKey> {
  constructor(private readonly dataSource: DataSource) {}

  async execute({ vendorSlug }: GetPublicSigningKeyQuery): Promise<PublicSigningKey> {
    const [vendor] = await this.dataSource.query('SELECT id, slug FROM vendors WHERE slug = $1', [vendorSlug]);
    if (!vendor) throw new DomainError('not_found', `No vendor "${vendorSlug}"`);
    const [active] = await this.dataSource.query(
      `SELECT public_key, fingerprint FROM vendor_signing_keys WHERE vendor_id = $1 AND status = 'active'`,
      [vendor.id],
    );
    return {
      vendorSlug: vendor.slug,
      activeKey: active ? { publicKey: active.public_key, fingerprint: active.fingerprint } : null,
    };
  }
}
