import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { isUuid } from '../../../platform/ids';

/** Reads `reviews` for the checks review commands make. */
@Injectable()
export class ReviewsReader {
  constructor(private readonly dataSource: DataSource) {}

  /** The author of a review of the listing, or null when the listing has no such review. */
  async authorOf(reviewId: string, listingId: string): Promise<string | null> {
    if (!isUuid(reviewId)) return null;
    const [review] = await this.dataSource.query('SELECT user_id FROM reviews WHERE id = $1 AND listing_id = $2', [
      reviewId,
      listingId,
    ]);
    return review ? review.user_id : null;
  }

  /** A review of one of the vendor's listings, or null. */
  async ofVendorListing(reviewId: string, vendorId: string): Promise<{ listingId: string; userId: string } | null> {
    if (!isUuid(reviewId)) return null;
    const [review] = await this.dataSource.query(
      'SELECT r.listing_id, r.user_id FROM reviews r JOIN listings l ON l.id = r.listing_id WHERE r.id = $1 AND l.vendor_id = $2',
      [reviewId, vendorId],
    );
    return review ? { listingId: review.listing_id, userId: review.user_id } : null;
  }
}
