import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { DomainError } from '../../../../platform/errors/domain-error';
import { REVIEW_COLUMNS, ReviewRecord, toReviewRecord } from '../../read-models/review-rows';
import { GetReviewQuery } from './get-review.query';

@QueryHandler(GetReviewQuery)
export class GetReviewHandler implements IQueryHandler<GetReviewQuery, ReviewRecord> {
  constructor(private readonly dataSource: DataSource) {}

  async execute({ reviewId }: GetReviewQuery): Promise<ReviewRecord> {
    const [row] = await this.dataSource.query(`SELECT ${REVIEW_COLUMNS} FROM reviews WHERE id = $1`, [reviewId]);
    if (!row) throw new DomainError('not_found', 'Review not found');
    return toReviewRecord(row);
  }
}
