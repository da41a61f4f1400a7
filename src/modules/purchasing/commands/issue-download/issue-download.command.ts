import { Command } from '@nestjs/cqrs';

export interface DownloadTicket {
  /** Signed; fetch it without a token before `expiresAt`. */
  url: string;
  /** The archive's SHA-256, to check the bytes against. */
  sha256: string;
  expiresAt: string;
}

/** A signed, short-lived URL for a release the caller is entitled to (a free listing's entitlement is granted here). */
export class IssueDownloadCommand extends Command<DownloadTicket> {
  constructor(
    readonly userId: string,
    readonly releaseId: string,
  ) {
    super();
  }
}
