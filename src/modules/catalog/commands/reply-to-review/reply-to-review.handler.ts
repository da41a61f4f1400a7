import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { EventStore } from '../../../../event-store/event-store';
import { decideOnStream } from '../../../../event-store/fold-stream';
import { Clock } from '../../../../platform/clock/clock';
import { DomainError } from '../../../../platform/errors/domain-error';
import { reviewDecider, reviewStreamId } from '../../domain/review.decider';
import { CatalogVendorsReader } from '../../read-models/catalog-vendors.reader';
import { ReviewsReader } from '../../read-models/reviews.reader';
import { ReplyToReviewCommand } from './reply-to-review.command';

@CommandHandler(ReplyToReviewCommand)
export class ReplyToReviewHandler implements ICommandHandler<ReplyToReviewCommand, void> {
  constructor(
    private readonly store: EventStore,
    private readonly vendors: CatalogVendorsReader,
    private readonly reviews: ReviewsReader,
    private readonly clock: Clock,
  ) {}

  /** Only the vendor of the reviewed listing may reply; to anyone else the review does not exist. */
  async execute({ vendorId, reviewId, body }: ReplyToReviewCommand): Promise<void> {
    await this.vendors.require(vendorId);
    const review = await this.reviews.ofVendorListing(reviewId, vendorId);
    if (!review) throw new DomainError('not_found', 'Review not found');
    await decideOnStream(this.store, reviewStreamId(review.listingId, review.userId), reviewDecider, {
      type: 'ReplyToReview',
      vendorId,
      body,
      now: this.clock.now(),
    });
  }
}
