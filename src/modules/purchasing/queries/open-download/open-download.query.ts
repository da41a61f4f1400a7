import { Readable } from 'node:stream';
import { Query } from '@nestjs/cqrs';
import { DownloadLinkParams } from '../../domain/download-link';

export interface DownloadFile {
  fileName: string;
  sizeBytes: number;
  stream: Readable;
}

/** The archive a signed download URL names, once its signature and expiry check out. */
export class OpenDownloadQuery extends Query<DownloadFile> {
  constructor(
    readonly releaseId: string,
    readonly link: DownloadLinkParams,
  ) {
    super();
  }
}
