import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { DomainError } from '../../../platform/errors/domain-error';
import { NO_VENDOR_PROFILE } from '../domain/vendor-profile';

export interface VendorProfileView {
  id: string;
  slug: string;
  displayName: string;
  bio: string | null;
  website: string | null;
  domainVerified: boolean;
  githubVerified: boolean;
  githubOrg: string | null;
  verified: boolean;
  createdAt: string;
  updatedAt: string;
}

/** Reads `vendors`, the read model VendorsProjection builds. */
@Injectable()
export class VendorsReader {
  constructor(private readonly dataSource: DataSource) {}

  async find(vendorId: string): Promise<VendorProfileView | null> {
    const [row] = await this.dataSource.query('SELECT * FROM vendors WHERE id = $1', [vendorId]);
    return row ? toView(row) : null;
  }

  /** The caller's profile; vendor endpoints answer 403 without one. */
  async require(vendorId: string): Promise<VendorProfileView> {
    const vendor = await this.find(vendorId);
    if (!vendor) throw new DomainError('forbidden', NO_VENDOR_PROFILE);
    return vendor;
  }

  /** Vendors holding a proof that the schedule must re-check. */
  async verifiedVendorIds(): Promise<string[]> {
    const rows = await this.dataSource.query('SELECT id FROM vendors WHERE domain_verified OR github_verified ORDER BY id');
    return rows.map((row: { id: string }) => row.id);
  }
}

function toView(row: Record<string, unknown>): VendorProfileView {
  const domainVerified = row.domain_verified as boolean;
  const githubVerified = row.github_verified as boolean;
  return {
    id: row.id as string,
    slug: row.slug as string,
    displayName: row.display_name as string,
    bio: row.bio as string | null,
    website: row.website as string | null,
    domainVerified,
    githubVerified,
    githubOrg: githubVerified ? (row.github_org as string) : null,
    verified: domainVerified || githubVerified,
    createdAt: new Date(row.created_at as string).toISOString(),
    updatedAt: new Date(row.updated_at as string).toISOString(),
  };
}
