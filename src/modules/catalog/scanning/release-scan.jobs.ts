/** The release-scan queue's contract: the saga that asks for scans and the worker that runs them both use it. */
export const RELEASE_SCAN_QUEUE = 'release-scan';

export interface ReleaseScanJob {
  listingId: string;
  releaseId: string;
  archiveSha256: string;
  signed: boolean;
  /** The ReleaseUploaded event that asked for the scan and its correlation id, recorded on the result. */
  causationId?: string;
  correlationId?: string;
}
