import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { Clock } from '../../../../platform/clock/clock';
import { ScanStatus } from '../../domain/listing.decider';
import { AuditItem, AuditPage, ListAuditsQuery, PromptGuardReport } from './list-audits.query';

/** What a release not yet scanned shows. */
export const PENDING_LABEL = 'pending';
const NO_PROMPT_GUARD: PromptGuardReport = { ran: false, verified: false, perFile: [] };

/**
 * Security audits: each published listing (public, with a published release)
 * with the scan of its latest uploaded release (newest `created_at`), so a
 * newer upload that is still pending or that failed its scan shows here even
 * though the listing still serves an older release. Most installed first.
 */
@QueryHandler(ListAuditsQuery)
export class ListAuditsHandler implements IQueryHandler<ListAuditsQuery, AuditPage> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {}

  async execute({ params }: ListAuditsQuery): Promise<AuditPage> {
    const limit = params.limit ?? 20;
    const offset = params.offset ?? 0;
    const now = this.clock.now();
    const latestRelease = `
      CROSS JOIN LATERAL (
        SELECT r.version, r.scan_status, r.scan_label, r.quality_score, r.scanned_at, r.prompt_guard
        FROM releases r WHERE r.listing_id = l.id ORDER BY r.created_at DESC, r.id DESC LIMIT 1
      ) r`;
    const where = 'l.searchable AND ($1::text IS NULL OR l.type = $1) AND ($2::text IS NULL OR r.scan_status = $2)';
    const filters = [params.type ?? null, params.status ?? null];
    const [rows, [{ total }]] = await Promise.all([
      this.dataSource.query(
        `SELECT l.id, l.slug, l.title, l.type, l.vendor_verified, l.rating, l.install_count, v.slug AS vendor_slug, r.*
         FROM listings l JOIN catalog_vendors v ON v.vendor_id = l.vendor_id ${latestRelease}
         WHERE ${where} ORDER BY l.install_count DESC, l.id LIMIT $3 OFFSET $4`,
        [...filters, limit, offset],
      ),
      this.dataSource.query(`SELECT count(*) AS total FROM listings l ${latestRelease} WHERE ${where}`, filters),
    ]);
    return {
      audits: rows.map((row: Record<string, unknown>, i: number) => toItem(row, offset + i + 1)),
      total: Number(total),
      generatedAt: now.toISOString(),
    };
  }
}

function toItem(row: Record<string, unknown>, rank: number): AuditItem {
  const guard = row.prompt_guard as PromptGuardReport | null;
  return {
    rank,
    vendor: row.vendor_slug as string,
    slug: row.slug as string,
    title: row.title as string,
    type: row.type as string,
    vendorVerified: row.vendor_verified as boolean,
    svcRating: Number(row.rating),
    installCount: Number(row.install_count),
    scan: {
      status: row.scan_status as ScanStatus,
      label: (row.scan_label as string | null) ?? PENDING_LABEL,
      qualityScore: row.quality_score === null ? 0 : Number(row.quality_score),
      version: row.version as string,
      scannedAt: row.scanned_at === null ? null : new Date(row.scanned_at as string).toISOString(),
    },
    promptGuard: guard
      ? {
          ran: Boolean(guard.ran),
          verified: Boolean(guard.verified),
          perFile: (guard.perFile ?? []).map((f) => ({ file: f.file, label: f.label, score: Number(f.score) })),
        }
      : { ...NO_PROMPT_GUARD, perFile: [] },
  };
}
