import { Command } from '@nestjs/cqrs';

/** Marks a review of a listing helpful or not: one vote per user, changeable, never on one's own review. */
export class VoteOnReviewCommand extends Command<void> {
  constructor(
    readonly userId: string,
    readonly vendorSlug: string,
    readonly slug: string,
    readonly reviewId: string,
    readonly helpful: boolean,
  ) {
    super();
  }
}
