import { randomUUID } from 'node:crypto';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { EventStore } from '../../../../event-store/event-store';
import { decideOnStream } from '../../../../event-store/fold-stream';
import { Clock } from '../../../../platform/clock/clock';
import { DomainError } from '../../../../platform/errors/domain-error';
import { reviewDecider, reviewStreamId } from '../../domain/review.decider';
import { CatalogEvents } from '../../events';
import { ListingsReader } from '../../read-models/listings.reader';
import { PostedReview, PostReviewCommand } from './post-review.command';

@CommandHandler(PostReviewCommand)
export class PostReviewHandler implements ICommandHandler<PostReviewCommand, PostedReview> {
  constructor(
    private readonly store: EventStore,
    private readonly listings: ListingsReader,
    private readonly clock: Clock,
  ) {}

  async execute({ userId, vendorSlug, slug, rating, body }: PostReviewCommand): Promise<PostedReview> {
    const listing = await this.listings.reviewable(vendorSlug, slug, userId);
    if (listing.vendorId === userId) throw new DomainError('unprocessable', 'A vendor cannot review its own listing');
    const { events, state } = await decideOnStream(this.store, reviewStreamId(listing.id, userId), reviewDecider, {
      type: 'PostReview',
      reviewId: randomUUID(),
      listingId: listing.id,
      userId,
      rating,
      body,
      now: this.clock.now(),
    });
    if (!state.exists) throw new Error('a posted review must exist');
    return { reviewId: state.reviewId, created: events[0]?.type === CatalogEvents.ReviewPosted };
  }
}
