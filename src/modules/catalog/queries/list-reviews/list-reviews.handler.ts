import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { ListingsReader } from '../../read-models/listings.reader';
import { REVIEW_COLUMNS, toReviewRecord } from '../../read-models/review-rows';
import { ListReviewsQuery, ReviewPage } from './list-reviews.query';

@QueryHandler(ListReviewsQuery)
export class ListReviewsHandler implements IQueryHandler<ListReviewsQuery, ReviewPage> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly listings: ListingsReader,
  ) {}

  async execute({ vendorSlug, slug, viewerId, page, perPage }: ListReviewsQuery): Promise<ReviewPage> {
    const listing = await this.listings.require({ vendorSlug, slug }, viewerId);
    const rows = await this.dataSource.query(
      `SELECT ${REVIEW_COLUMNS} FROM reviews WHERE listing_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3`,
      [listing.id, perPage, (page - 1) * perPage],
    );
    return {
      reviews: rows.map(toReviewRecord),
      rating: listing.rating,
      ratingCount: listing.ratingCount,
      total: listing.ratingCount,
      page,
      perPage,
    };
  }
}
