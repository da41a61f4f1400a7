import { Command } from '@nestjs/cqrs';
import { StagedBlob } from '../../../../platform/blob-store/blob-store';
import { ScanStatus } from '../../domain/listing.decider';

export interface UploadReleaseResult {
  release: { id: string; version: string; scanStatus: ScanStatus; createdAt: string };
  listing: { id: string; slug: string };
}

/**
 * Records an uploaded archive as a pending release; the first upload of a
 * slug creates its listing as a draft. The scan starts from the event. A
 * retried upload of the same archive answers with the release it made.
 */
export class UploadReleaseCommand extends Command<UploadReleaseResult> {
  constructor(
    readonly vendorId: string,
    /** The archive as staged by the upload; committed to the blob store only when a release names it. */
    readonly staged: StagedBlob,
    readonly priceCents: number,
    /** Base64 detached signature of the archive by the vendor's active key, or null. */
    readonly signature: string | null,
  ) {
    super();
  }
}
