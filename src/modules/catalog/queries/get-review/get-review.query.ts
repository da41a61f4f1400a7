import { Query } from '@nestjs/cqrs';
import { ReviewRecord } from '../../read-models/review-rows';

export class GetReviewQuery extends Query<ReviewRecord> {
  constructor(readonly reviewId: string) {
    super();
  }
}
