import * as semver from 'semver';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { ListingsReader } from '../../read-models/listings.reader';
import { ListReleasesQuery, PublishedRelease } from './list-releases.query';

@QueryHandler(ListReleasesQuery)
export class ListReleasesHandler implements IQueryHandler<ListReleasesQuery, PublishedRelease[]> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly listings: ListingsReader,
  ) {}

  async execute({ vendorSlug, slug, viewerId }: ListReleasesQuery): Promise<PublishedRelease[]> {
    const listing = await this.listings.require({ vendorSlug, slug }, viewerId);
    const rows = await this.dataSource.query(
      `SELECT id, version, archive_sha256, published_at, scan_status, signature, signed_with FROM releases
       WHERE listing_id = $1 AND published_at IS NOT NULL`,
      [listing.id],
    );
    rows.sort((a: { version: string }, b: { version: string }) => semver.rcompare(a.version, b.version));
    return rows.map((row: Record<string, unknown>) => ({
      id: row.id as string,
      version: row.version as string,
      archiveSha256: row.archive_sha256 as string,
      publishedAt: new Date(row.published_at as string).toISOString(),
      scanStatus: row.scan_status as string,
      // A release signed before signatures were stored has a fingerprint but no signature to check.
      signature: (row.signature as string | null) ?? null,
      signingKeyFingerprint: (row.signed_with as string | null) ?? null,
    }));
  }
}
