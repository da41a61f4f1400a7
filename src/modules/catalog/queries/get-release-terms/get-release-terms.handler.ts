import { IQueryHandler, QueryBus, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { DomainError } from '../../../../platform/errors/domain-error';
import { isUuid } from '../../../../platform/ids';
import { GetPurchaseTermsQuery, PurchaseTerms } from '../get-purchase-terms/get-purchase-terms.query';
import { GetReleaseTermsQuery } from './get-release-terms.query';

/**
 * Only the release's listing comes from the read model (a release never moves
 * to another listing); whether it is published, the listing's status and the
 * price are then decided from the listing's stream by `GetPurchaseTermsQuery`.
 */
@QueryHandler(GetReleaseTermsQuery)
export class GetReleaseTermsHandler implements IQueryHandler<GetReleaseTermsQuery, PurchaseTerms> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly queries: QueryBus,
  ) {}

  async execute({ releaseId, buyerId }: GetReleaseTermsQuery): Promise<PurchaseTerms> {
    if (!isUuid(releaseId)) throw releaseNotFound();
    const [row] = await this.dataSource.query('SELECT listing_id FROM releases WHERE id = $1', [releaseId]);
    if (!row) throw releaseNotFound();
    try {
      return await this.queries.execute(new GetPurchaseTermsQuery({ listingId: row.listing_id, releaseId, buyerId }));
    } catch (error) {
      // One answer for every release the caller cannot have, so a release id tells nothing about its listing.
      if (error instanceof DomainError && error.code === 'not_found') throw releaseNotFound();
      throw error;
    }
  }
}

function releaseNotFound(): DomainError {
  return new DomainError('not_found', 'Release not found');
}
