import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { EventStore } from '../../../../event-store/event-store';
import { decideOnStream } from '../../../../event-store/fold-stream';
import { Clock } from '../../../../platform/clock/clock';
import { DomainError } from '../../../../platform/errors/domain-error';
import { reviewVotesDecider, reviewVotesStreamId } from '../../domain/review.decider';
import { ListingsReader } from '../../read-models/listings.reader';
import { ReviewsReader } from '../../read-models/reviews.reader';
import { VoteOnReviewCommand } from './vote-on-review.command';

@CommandHandler(VoteOnReviewCommand)
export class VoteOnReviewHandler implements ICommandHandler<VoteOnReviewCommand, void> {
  constructor(
    private readonly store: EventStore,
    private readonly listings: ListingsReader,
    private readonly reviews: ReviewsReader,
    private readonly clock: Clock,
  ) {}

  async execute({ userId, vendorSlug, slug, reviewId, helpful }: VoteOnReviewCommand): Promise<void> {
    const listing = await this.listings.reviewable(vendorSlug, slug, userId);
    const author = await this.reviews.authorOf(reviewId, listing.id);
    if (author === null) throw new DomainError('not_found', 'Review not found');
    if (author === userId) throw new DomainError('unprocessable', 'You cannot vote on your own review');
    await decideOnStream(this.store, reviewVotesStreamId(reviewId), reviewVotesDecider, {
      type: 'Vote',
      reviewId,
      userId,
      helpful,
      now: this.clock.now(),
    });
  }
}
