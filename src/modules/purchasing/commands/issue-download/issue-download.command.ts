import { Command } from '@nestjs/cqrs';
import { PurchaseCaller } from '../purchase/purchase.command';

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
    readonly caller: PurchaseCaller = { tokenId: null, policyId: null },
  ) {
    super();
  }
}
