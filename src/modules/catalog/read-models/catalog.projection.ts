import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { RecordedEvent } from '../../../event-store/event-store';
import { AsProjection, Projection } from '../../../projections/runner/processor';
import { NetworkEvents } from '../../network/events';
import { VendorEvent } from '../../vendors/domain/vendor.decider';
import { VendorEvents } from '../../vendors/events';
import { ListingChanges } from '../domain/listing-fields';
import { InstallRecorded } from '../domain/installs';
import { LISTING_EVENT_TYPES, ListingEvent } from '../domain/listing.decider';
import { REVIEW_EVENT_TYPES, ReviewEvent, ReviewVoteEvent } from '../domain/review.decider';
import { CatalogEvents } from '../events';
import { applyInstall, applyReview } from './reviews-and-installs';
import { applyServiceCalled, ServiceCalled } from './service-reliability';

/** Listing field -> column, for ListingUpdated. JSON documents are stored as jsonb. */
const COLUMNS: Record<keyof ListingChanges, { column: string; json?: true }> = {
  title: { column: 'title' },
  description: { column: 'description' },
  tags: { column: 'tags' },
  priceCents: { column: 'price_cents' },
  readmeMd: { column: 'readme_md' },
  status: { column: 'status' },
  serviceEndpoint: { column: 'service_endpoint' },
  serviceProtocol: { column: 'service_protocol' },
  serviceTransport: { column: 'service_transport' },
  pricingModel: { column: 'pricing_model' },
  perCallCents: { column: 'per_call_cents' },
  settlementMethods: { column: 'settlement_methods' },
  capabilities: { column: 'capabilities', json: true },
  agentCard: { column: 'agent_card', json: true },
};

const VENDOR_EVENTS: string[] = [
  VendorEvents.VendorProfileSaved,
  VendorEvents.VendorDomainVerified,
  VendorEvents.VendorDomainVerificationLapsed,
  VendorEvents.VendorGithubVerified,
  VendorEvents.VendorGithubVerificationLapsed,
];

/**
 * `listings`, `releases`, and `catalog_vendors` (the vendor facts a listing
 * shows). One projection, so a listing never sees its vendor or its releases
 * out of order. Everything the trust score weighs is derived here from events
 * this projection reads, the network's settled calls included
 * (`listing_service_calls`), so a rebuild of the catalog alone restores it.
 */
@Injectable()
@AsProjection()
export class CatalogProjection implements Projection {
  readonly name = 'catalog';
  readonly eventTypes = [
    ...VENDOR_EVENTS,
    ...LISTING_EVENT_TYPES,
    ...REVIEW_EVENT_TYPES,
    CatalogEvents.ReviewVoted,
    CatalogEvents.InstallRecorded,
    NetworkEvents.ServiceCalled,
  ];

  async apply(event: RecordedEvent, tx: EntityManager): Promise<void> {
    if (VENDOR_EVENTS.includes(event.type)) return this.applyVendor(event as unknown as VendorEvent, tx);
    if (event.type === CatalogEvents.InstallRecorded) return applyInstall(event as unknown as InstallRecorded, tx);
    if (event.type === NetworkEvents.ServiceCalled) return applyServiceCalled(event as unknown as ServiceCalled, tx);
    if (event.type === CatalogEvents.ReviewVoted || (REVIEW_EVENT_TYPES as string[]).includes(event.type)) {
      return applyReview(event as unknown as ReviewEvent | ReviewVoteEvent, tx);
    }
    const e = event as unknown as ListingEvent;
    switch (e.type) {
      case CatalogEvents.ListingCreated: {
        const d = e.data;
        await tx.query(
          `INSERT INTO listings (id, vendor_id, slug, type, title, description, tags, targets, tools, price_cents, readme_md, status,
             created_at, updated_at, vendor_name, vendor_verified)
           SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 'draft', $12, $12, v.display_name, v.domain_verified OR v.github_verified
           FROM catalog_vendors v WHERE v.vendor_id = $2`,
          [
            d.listingId,
            d.vendorId,
            d.slug,
            d.type,
            d.title,
            d.description,
            d.tags,
            d.targets,
            d.tools,
            d.priceCents,
            d.readmeMd,
            d.createdAt,
          ],
        );
        return;
      }
      case CatalogEvents.ReleaseUploaded: {
        const {
          readmeMd,
          listingId,
          releaseId,
          vendorId,
          archiveSha256,
          sizeBytes,
          priceCents,
          signedWith,
          signature,
          uploadedAt,
          ...content
        } = e.data;
        await tx.query(
          `INSERT INTO releases (id, listing_id, vendor_id, version, archive_sha256, size_bytes, price_cents, signed_with, signature, content, readme_md, created_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
          [
            releaseId,
            listingId,
            vendorId,
            content.version,
            archiveSha256,
            sizeBytes,
            priceCents,
            signedWith,
            signature ?? null,
            content,
            readmeMd,
            uploadedAt,
          ],
        );
        return;
      }
      case CatalogEvents.ReleaseScanned: {
        const d = e.data;
        await tx.query(
          `UPDATE releases SET scan_status = $2, scan_label = $3, quality_score = $4, scan_findings = $5, scan_checks = $6,
             prompt_guard = $7, scanned_at = $8 WHERE id = $1`,
          [
            d.releaseId,
            d.status,
            d.label,
            d.qualityScore,
            JSON.stringify(d.findings),
            JSON.stringify(d.checks),
            d.promptGuard,
            d.scannedAt,
          ],
        );
        return;
      }
      case CatalogEvents.ReleasePublishRequested:
        await tx.query('UPDATE releases SET publish_requested = true WHERE id = $1', [e.data.releaseId]);
        return;
      case CatalogEvents.ReleasePublished: {
        const d = e.data;
        await tx.query('UPDATE releases SET published_at = $2 WHERE id = $1', [d.releaseId, d.publishedAt]);
        // Fields the vendor never edited follow the latest release's manifest; edited ones stay as edited.
        const follow = (field: string, column: string, value: string) =>
          `${column} = CASE WHEN '${field}' = ANY (l.edited_fields) THEN l.${column} ELSE ${value} END`;
        const latest = d.becomesLatest
          ? [
              'latest_version = r.version',
              'latest_release_id = r.id',
              'latest_signed = r.signed_with IS NOT NULL',
              'latest_scan_status = r.scan_status',
              follow('title', 'title', "r.content->>'title'"),
              follow('description', 'description', "r.content->>'description'"),
              follow('tags', 'tags', "ARRAY(SELECT jsonb_array_elements_text(r.content->'tags'))"),
              follow('readmeMd', 'readme_md', 'coalesce(r.readme_md, l.readme_md)'),
              follow('priceCents', 'price_cents', 'r.price_cents'),
              "targets = ARRAY(SELECT jsonb_array_elements_text(r.content->'targets'))",
              "tools = ARRAY(SELECT jsonb_array_elements_text(r.content->'tools'))",
            ]
              .map((set) => `, ${set}`)
              .join('')
          : '';
        await tx.query(
          `UPDATE listings l SET status = CASE WHEN l.status = 'unlisted' THEN 'unlisted' ELSE 'published' END, updated_at = $3,
             first_published_at = coalesce(l.first_published_at, $3) ${latest}
           FROM releases r WHERE l.id = $1 AND r.id = $2`,
          [d.listingId, d.releaseId, d.publishedAt],
        );
        return;
      }
      case CatalogEvents.ListingVisibilityChanged:
        await tx.query('UPDATE listings SET visibility = $2, updated_at = $3 WHERE id = $1', [
          e.data.listingId,
          e.data.visibility,
          e.data.changedAt,
        ]);
        return;
      case CatalogEvents.ListingUpdated: {
        const sets: string[] = [];
        const values: unknown[] = [e.data.listingId, e.data.updatedAt];
        for (const [field, value] of Object.entries(e.data.changes)) {
          const target = COLUMNS[field as keyof ListingChanges];
          if (!target) continue;
          values.push(target.json && value !== null ? JSON.stringify(value) : value);
          sets.push(`${target.column} = $${values.length}`);
        }
        values.push(Object.keys(e.data.changes));
        sets.push(`edited_fields = ARRAY(SELECT DISTINCT unnest(edited_fields || $${values.length}::text[]))`);
        await tx.query(`UPDATE listings SET updated_at = $2${sets.map((s) => `, ${s}`).join('')} WHERE id = $1`, values);
        return;
      }
    }
  }

  private async applyVendor(e: VendorEvent, tx: EntityManager): Promise<void> {
    switch (e.type) {
      case VendorEvents.VendorProfileSaved:
        await tx.query(
          `INSERT INTO catalog_vendors (vendor_id, slug, display_name, org_id) VALUES ($1, $2, $3, $4)
           ON CONFLICT (vendor_id) DO UPDATE SET slug = $2, display_name = $3, org_id = COALESCE($4, catalog_vendors.org_id)`,
          [e.data.vendorId, e.data.slug, e.data.displayName, e.data.orgId ?? null],
        );
        await tx.query('UPDATE listings SET vendor_name = $2 WHERE vendor_id = $1 AND vendor_name <> $2', [
          e.data.vendorId,
          e.data.displayName,
        ]);
        return;
      case VendorEvents.VendorDomainVerified:
      case VendorEvents.VendorDomainVerificationLapsed:
        await tx.query('UPDATE catalog_vendors SET domain_verified = $2 WHERE vendor_id = $1', [
          e.data.vendorId,
          e.type === VendorEvents.VendorDomainVerified,
        ]);
        break;
      case VendorEvents.VendorGithubVerified:
        await tx.query('UPDATE catalog_vendors SET github_verified = true, github_org = $2 WHERE vendor_id = $1', [
          e.data.vendorId,
          e.data.org,
        ]);
        break;
      case VendorEvents.VendorGithubVerificationLapsed:
        await tx.query('UPDATE catalog_vendors SET github_verified = false WHERE vendor_id = $1', [e.data.vendorId]);
        break;
      default:
        return;
    }
    await tx.query(
      `UPDATE listings l SET vendor_verified = v.domain_verified OR v.github_verified
       FROM catalog_vendors v WHERE v.vendor_id = $1 AND l.vendor_id = $1 AND l.vendor_verified <> (v.domain_verified OR v.github_verified)`,
      [e.data.vendorId],
    );
  }

  async reset(tx: EntityManager): Promise<void> {
    for (const table of [
      'review_votes',
      'reviews',
      'listing_installs',
      'listing_service_calls',
      'listing_search_history',
      'releases',
      'listings',
      'catalog_vendors',
    ]) {
      await tx.query(`DELETE FROM ${table}`);
    }
    // The sequence keeps counting, so a cursor from before the rebuild can never match rows from after it.
    await tx.query('UPDATE catalog_state SET rating_sum = 0, rating_count = 0 WHERE id = 1');
  }
}
