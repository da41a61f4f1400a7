import { Query } from '@nestjs/cqrs';
import { ReviewRecord } from '../../read-models/review-rows';

export interface ReviewPage {
  reviews: ReviewRecord[];
  rating: number;
  ratingCount: number;
  total: number;
  page: number;
  perPage: number;
}

/** A listing's reviews, newest first, with its average rating. Drafts are visible to their vendor only. */
export class ListReviewsQuery extends Query<ReviewPage> {
  constructor(
    readonly vendorSlug: string,
    readonly slug: string,
    readonly viewerId: string | null,
    readonly page: number,
    readonly perPage: number,
  ) {
    super();
  }
}
