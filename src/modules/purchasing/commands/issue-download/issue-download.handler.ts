import { CommandBus, CommandHandler, ICommandHandler, QueryBus } from '@nestjs/cqrs';
import { AppConfig } from '../../../../config/app-config';
import { InjectConfig } from '../../../../config/config.module';
import { EventStore } from '../../../../event-store/event-store';

import { Clock } from '../../../../platform/clock/clock';
import { OrgsReader } from '../../../orgs/read-models/orgs.reader';
import { DomainError } from '../../../../platform/errors/domain-error';
import { RecordInstallCommand } from '../../../catalog/commands/record-install/record-install.command';
import { PurchaseTerms } from '../../../catalog/queries/get-purchase-terms/get-purchase-terms.query';
import { GetReleaseTermsQuery } from '../../../catalog/queries/get-release-terms/get-release-terms.query';
import { DownloadLinks } from '../../domain/download-link';
import { PurchaseCaller, PurchaseCommand } from '../purchase/purchase.command';
import { DownloadTicket, IssueDownloadCommand } from './issue-download.command';

/**
 * Issues a download URL: the release must be a published one of a live
 * listing (404), the caller entitled to that listing (403; a free listing's
 * entitlement is granted through the purchase path on the first download),
 * and each issue records an install, which counts once per user, listing and UTC day.
 * Installs are counted here, when the URL is issued, rather than when the file
 * is served: the served route knows no more than the signature.
 */ import { foldEntitlement } from '../purchase-streams';

@CommandHandler(IssueDownloadCommand)
export class IssueDownloadHandler implements ICommandHandler<IssueDownloadCommand, DownloadTicket> {
  constructor(
    private readonly orgs: OrgsReader,
    private readonly store: EventStore,
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly links: DownloadLinks,
    private readonly clock: Clock,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  async execute({ userId, releaseId, caller }: IssueDownloadCommand): Promise<DownloadTicket> {
    const terms = await this.queries.execute(new GetReleaseTermsQuery({ releaseId, buyerId: userId }));
    await this.requireEntitlement(userId, terms, caller);
    await this.commands.execute(new RecordInstallCommand(terms.listingId, userId));
    const link = this.links.issue(terms.releaseId, userId, this.clock.now(), this.config.downloads.urlTtlSeconds);
    return { url: link.url, sha256: terms.archiveSha256, expiresAt: link.expiresAt };
  }

  /** The entitlement's stream, not its read model, decides: it is what a purchase appends to. */
  private async requireEntitlement(userId: string, terms: PurchaseTerms, caller: PurchaseCaller): Promise<void> {
    // Granted only: a card purchase still settling (a hold) is not yet an entitlement.
    const { state } = await foldEntitlement(this.store, userId, terms.listingId);
    if (state.status === 'granted') return;
    // What one of the caller's orgs owns, every member of it may download.
    for (const orgId of await this.orgs.orgIdsOf(userId)) {
      if ((await foldEntitlement(this.store, orgId, terms.listingId)).state.status === 'granted') return;
    }
    if (terms.priceCents > 0) throw buyFirst(terms);
    try {
      // The free purchase appends order and entitlement atomically, and answers already_owned to a racing twin.
      // maxPriceCents 0: if the vendor set a price meanwhile, nothing is bought and nothing charged.
      await this.commands.execute(
        // The caller's spend policy applies to a free grant too (its vendor allowlist and blocked types).
        new PurchaseCommand(userId, { listingId: terms.listingId, releaseId: terms.releaseId, maxPriceCents: 0 }, caller),
      );
    } catch (error) {
      if (error instanceof DomainError && error.code === 'conflict') throw buyFirst(terms);
      throw error;
    }
  }
}

function buyFirst(terms: PurchaseTerms): DomainError {
  return new DomainError(
    'forbidden',
    `"${terms.listingTitle}" is a paid listing you do not own: buy it first (POST /v1/purchases with listingId ${terms.listingId}), then download it`,
  );
}
