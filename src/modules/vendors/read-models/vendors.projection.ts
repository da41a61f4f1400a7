import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { RecordedEvent } from '../../../event-store/event-store';
import { AsProjection, Projection } from '../../../projections/runner/processor';
import { VendorEvent } from '../domain/vendor.decider';
import { VendorEvents } from '../events';

/** `vendors`: profiles and their verification state. */
@Injectable()
@AsProjection()
export class VendorsProjection implements Projection {
  readonly name = 'vendors';
  readonly eventTypes = [
    VendorEvents.VendorProfileSaved,
    VendorEvents.VendorDomainChallengeIssued,
    VendorEvents.VendorDomainVerified,
    VendorEvents.VendorDomainVerificationLapsed,
    VendorEvents.VendorGithubVerified,
    VendorEvents.VendorGithubVerificationLapsed,
  ];

  async apply(event: RecordedEvent, tx: EntityManager): Promise<void> {
    const e = event as unknown as VendorEvent;
    switch (e.type) {
      case VendorEvents.VendorProfileSaved:
        await tx.query(
          `INSERT INTO vendors (id, slug, display_name, bio, website, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $6)
           ON CONFLICT (id) DO UPDATE SET slug = $2, display_name = $3, bio = $4, website = $5, updated_at = $6`,
          [e.data.vendorId, e.data.slug, e.data.displayName, e.data.bio, e.data.website, e.data.savedAt],
        );
        return;
      case VendorEvents.VendorDomainChallengeIssued:
        await tx.query('UPDATE vendors SET domain_host = $2, domain_token = $3, domain_verified = false WHERE id = $1', [
          e.data.vendorId,
          e.data.host,
          e.data.token,
        ]);
        return;
      case VendorEvents.VendorDomainVerified:
        await tx.query('UPDATE vendors SET domain_verified = true WHERE id = $1', [e.data.vendorId]);
        return;
      case VendorEvents.VendorDomainVerificationLapsed:
        await tx.query('UPDATE vendors SET domain_verified = false WHERE id = $1', [e.data.vendorId]);
        return;
      case VendorEvents.VendorGithubVerified:
        await tx.query('UPDATE vendors SET github_verified = true, github_org = $2 WHERE id = $1', [e.data.vendorId, e.data.org]);
        return;
      case VendorEvents.VendorGithubVerificationLapsed:
        await tx.query('UPDATE vendors SET github_verified = false WHERE id = $1', [e.data.vendorId]);
        return;
    }
  }

  async reset(tx: EntityManager): Promise<void> {
    await tx.query('DELETE FROM vendors');
  }
}
