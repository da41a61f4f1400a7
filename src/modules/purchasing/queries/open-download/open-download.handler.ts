import { IQueryHandler, QueryBus, QueryHandler } from '@nestjs/cqrs';
import { BlobStore } from '../../../../platform/blob-store/blob-store';
import { Clock } from '../../../../platform/clock/clock';
import { GetReleaseTermsQuery } from '../../../catalog/queries/get-release-terms/get-release-terms.query';
import { archiveFileName, DownloadLinks } from '../../domain/download-link';
import { DownloadFile, OpenDownloadQuery } from './open-download.query';

/**
 * Checks the link before anything is looked up, so a forged one costs no
 * database work and learns nothing about which releases exist. The release is
 * then read as a purchase would be: a listing taken back to draft stops serving it.
 */
@QueryHandler(OpenDownloadQuery)
export class OpenDownloadHandler implements IQueryHandler<OpenDownloadQuery, DownloadFile> {
  constructor(
    private readonly links: DownloadLinks,
    private readonly queries: QueryBus,
    private readonly blobs: BlobStore,
    private readonly clock: Clock,
  ) {}

  async execute({ releaseId, link }: OpenDownloadQuery): Promise<DownloadFile> {
    this.links.check(releaseId, link, this.clock.now());
    // Judged again for the user the link was issued to: a listing made private since stops serving it to outsiders.
    const terms = await this.queries.execute(new GetReleaseTermsQuery({ releaseId, buyerId: link.user }));
    const blob = await this.blobs.read(terms.archiveSha256);
    // A published release whose archive is gone is the server's fault, never the caller's: a 500, logged.
    if (!blob) throw new Error(`the archive ${terms.archiveSha256} of release ${releaseId} is missing from the blob store`);
    return {
      fileName: archiveFileName(terms.vendorSlug, terms.listingSlug, terms.version),
      sizeBytes: blob.sizeBytes,
      stream: blob.stream,
    };
  }
}
