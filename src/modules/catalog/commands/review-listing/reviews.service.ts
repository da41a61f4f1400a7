import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { EventStore } from '../../../../event-store/event-store';
import { decideOnStream } from '../../../../event-store/fold-stream';
import { Clock } from '../../../../platform/clock/clock';
import { DomainError } from '../../../../platform/errors/domain-error';
import { isUuid } from '../../../../platform/ids';
import { reviewDecider, reviewStreamId, reviewVotesDecider, reviewVotesStreamId } from '../../domain/review.decider';

/** Reviews, helpful votes and vendor replies. Drafts cannot be reviewed: to everyone but their vendor they do not exist. */
@Injectable()
export class ReviewsService {
  constructor(
    private readonly store: EventStore,
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {}

  /** Creates the caller's review of the listing, or edits it; returns its id and whether it is new. */
  async post(
    userId: string,
    vendorSlug: string,
    slug: string,
    rating: number,
    body: string,
  ): Promise<{ reviewId: string; created: boolean }> {
    const listing = await this.reviewableListing(vendorSlug, slug);
    if (listing.vendor_id === userId) throw new DomainError('unprocessable', 'A vendor cannot review its own listing');
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
    return { reviewId: state.reviewId, created: events[0]?.type === 'ReviewPosted' };
  }

  async vote(userId: string, vendorSlug: string, slug: string, reviewId: string, helpful: boolean): Promise<void> {
    const listing = await this.reviewableListing(vendorSlug, slug);
    const [review] = isUuid(reviewId)
      ? await this.dataSource.query('SELECT user_id FROM reviews WHERE id = $1 AND listing_id = $2', [reviewId, listing.id])
      : [];
    if (!review) throw new DomainError('not_found', 'Review not found');
    if (review.user_id === userId) throw new DomainError('unprocessable', 'You cannot vote on your own review');
    await decideOnStream(this.store, reviewVotesStreamId(reviewId), reviewVotesDecider, {
      type: 'Vote',
      reviewId,
      userId,
      helpful,
      now: this.clock.now(),
    });
  }

  /** Only the vendor of the reviewed listing may reply; to anyone else the review does not exist. */
  async reply(vendorId: string, reviewId: string, body: string): Promise<void> {
    const [review] = isUuid(reviewId)
      ? await this.dataSource.query(
          'SELECT r.listing_id, r.user_id FROM reviews r JOIN listings l ON l.id = r.listing_id WHERE r.id = $1 AND l.vendor_id = $2',
          [reviewId, vendorId],
        )
      : [];
    if (!review) throw new DomainError('not_found', 'Review not found');
    await decideOnStream(this.store, reviewStreamId(review.listing_id, review.user_id), reviewDecider, {
      type: 'ReplyToReview',
      vendorId,
      body,
      now: this.clock.now(),
    });
  }

  private async reviewableListing(vendorSlug: string, slug: string): Promise<{ id: string; vendor_id: string }> {
    const [listing] = await this.dataSource.query(
      `SELECT l.id, l.vendor_id FROM listings l JOIN catalog_vendors v ON v.vendor_id = l.vendor_id
       WHERE v.slug = $1 AND l.slug = $2 AND l.status <> 'draft'`,
      [vendorSlug, slug],
    );
    if (!listing) throw new DomainError('not_found', 'Listing not found');
    return listing;
  }
}
