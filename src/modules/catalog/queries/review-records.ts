import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { DomainError } from '../../../platform/errors/domain-error';

export interface ReviewRecord {
  id: string;
  userId: string;
  rating: number;
  body: string;
  createdAt: string;
  updatedAt: string;
  helpfulCount: number;
  reply: { body: string; createdAt: string } | null;
}

export interface ReviewPage {
  reviews: ReviewRecord[];
  rating: number;
  ratingCount: number;
  total: number;
  page: number;
  perPage: number;
}

/** A listing's reviews, newest first, with its average rating. Drafts are visible to their vendor only. */
@Injectable()
export class ReviewRecords {
  constructor(private readonly dataSource: DataSource) {}

  async forListing(
    vendorSlug: string,
    slug: string,
    viewerId: string | null,
    page: number,
    perPage: number,
  ): Promise<ReviewPage> {
    const [listing] = await this.dataSource.query(
      `SELECT l.id, l.status, l.vendor_id, l.rating, l.rating_count FROM listings l
       JOIN catalog_vendors v ON v.vendor_id = l.vendor_id WHERE v.slug = $1 AND l.slug = $2`,
      [vendorSlug, slug],
    );
    if (!listing || (listing.status === 'draft' && listing.vendor_id !== viewerId))
      throw new DomainError('not_found', 'Listing not found');
    return this.reviewsOf(listing.id, page, perPage, {
      rating: Number(listing.rating),
      ratingCount: Number(listing.rating_count),
    });
  }

  async byId(reviewId: string): Promise<ReviewRecord> {
    const [row] = await this.dataSource.query(`SELECT ${COLUMNS} FROM reviews WHERE id = $1`, [reviewId]);
    if (!row) throw new DomainError('not_found', 'Review not found');
    return toRecord(row);
  }

  private async reviewsOf(
    listingId: string,
    page: number,
    perPage: number,
    totals: { rating: number; ratingCount: number },
  ): Promise<ReviewPage> {
    const rows = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM reviews WHERE listing_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3`,
      [listingId, perPage, (page - 1) * perPage],
    );
    return {
      reviews: rows.map(toRecord),
      rating: totals.rating,
      ratingCount: totals.ratingCount,
      total: totals.ratingCount,
      page,
      perPage,
    };
  }
}

const COLUMNS = 'id, user_id, rating, body, created_at, updated_at, helpful_count, reply_body, replied_at';

function toRecord(row: Record<string, unknown>): ReviewRecord {
  return {
    id: row.id as string,
    userId: row.user_id as string,
    rating: Number(row.rating),
    body: row.body as string,
    createdAt: new Date(row.created_at as string).toISOString(),
    updatedAt: new Date(row.updated_at as string).toISOString(),
    helpfulCount: Number(row.helpful_count),
    reply:
      row.reply_body === null
        ? null
        : { body: row.reply_body as string, createdAt: new Date(row.replied_at as string).toISOString() },
  };
}
