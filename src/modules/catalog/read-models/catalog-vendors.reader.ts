import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { DomainError } from '../../../platform/errors/domain-error';
import { NO_VENDOR_PROFILE } from '../../vendors/domain/vendor-profile';

/** Reads `catalog_vendors`, the vendor facts the catalog projection keeps from vendor events. */
@Injectable()
export class CatalogVendorsReader {
  constructor(private readonly dataSource: DataSource) {}

  /** Vendor endpoints answer 403 to a caller without a vendor profile. */
  async require(vendorId: string): Promise<{ slug: string }> {
    const [row] = await this.dataSource.query('SELECT slug FROM catalog_vendors WHERE vendor_id = $1', [vendorId]);
    if (!row) throw new DomainError('forbidden', NO_VENDOR_PROFILE);
    return { slug: row.slug };
  }
}
