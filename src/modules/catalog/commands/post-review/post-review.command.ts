import { Command } from '@nestjs/cqrs';

export interface PostedReview {
  reviewId: string;
  /** False when the caller's existing review was edited. */
  created: boolean;
}

/** Creates the user's review of a listing, or edits it: one per user and listing. */
export class PostReviewCommand extends Command<PostedReview> {
  constructor(
    readonly userId: string,
    readonly vendorSlug: string,
    readonly slug: string,
    readonly rating: number,
    readonly body: string,
  ) {
    super();
  }
}
