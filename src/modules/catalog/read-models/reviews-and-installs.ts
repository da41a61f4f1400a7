import { EntityManager } from 'typeorm';
import { InstallRecorded } from '../domain/installs';
import { CatalogEvents } from '../events';
import { ReviewEvent, ReviewVoteEvent } from '../domain/review.decider';

/**
 * The catalog projection's handling of reviews and installs. Both move a
 * listing's ordering values (rating, installs), so they are applied by the
 * same projection as the listings, in log order.
 */
export async function applyReview(e: ReviewEvent | ReviewVoteEvent, tx: EntityManager): Promise<void> {
  switch (e.type) {
    case CatalogEvents.ReviewPosted: {
      const d = e.data;
      await tx.query(
        `INSERT INTO reviews (id, listing_id, user_id, rating, body, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $6)`,
        [d.reviewId, d.listingId, d.userId, d.rating, d.body, d.postedAt],
      );
      await moveRatings(tx, d.listingId, d.rating, 1);
      return;
    }
    case CatalogEvents.ReviewEdited: {
      const d = e.data;
      await tx.query('UPDATE reviews SET rating = $2, body = $3, updated_at = $4 WHERE id = $1', [
        d.reviewId,
        d.rating,
        d.body,
        d.editedAt,
      ]);
      await moveRatings(tx, d.listingId, d.rating - d.previousRating, 0);
      return;
    }
    case CatalogEvents.ReviewReplied:
      await tx.query('UPDATE reviews SET reply_body = $2, replied_at = $3 WHERE id = $1', [
        e.data.reviewId,
        e.data.body,
        e.data.repliedAt,
      ]);
      return;
    case CatalogEvents.ReviewVoted: {
      const d = e.data;
      await tx.query(
        `INSERT INTO review_votes (review_id, user_id, helpful) VALUES ($1, $2, $3)
         ON CONFLICT (review_id, user_id) DO UPDATE SET helpful = $3`,
        [d.reviewId, d.userId, d.helpful],
      );
      const change = (d.helpful ? 1 : 0) - (d.previous ? 1 : 0);
      if (change !== 0)
        await tx.query('UPDATE reviews SET helpful_count = helpful_count + $2 WHERE id = $1', [d.reviewId, change]);
      return;
    }
  }
}

/** Catalog-wide sums first: the listing's trigger reads them for its Bayesian average. */
async function moveRatings(tx: EntityManager, listingId: string, sumChange: number, countChange: number): Promise<void> {
  await tx.query('UPDATE catalog_state SET rating_sum = rating_sum + $1, rating_count = rating_count + $2 WHERE id = 1', [
    sumChange,
    countChange,
  ]);
  await tx.query('UPDATE listings SET rating_sum = rating_sum + $2, rating_count = rating_count + $3 WHERE id = $1', [
    listingId,
    sumChange,
    countChange,
  ]);
}

/** One user's installs of one listing count once per (UTC) day. */
export async function applyInstall(e: InstallRecorded, tx: EntityManager): Promise<void> {
  const { listingId, userId, recordedAt } = e.data;
  const inserted = await tx.query(
    `INSERT INTO listing_installs (listing_id, user_id, day, recorded_at) VALUES ($1, $2, ($3::timestamptz AT TIME ZONE 'UTC')::date, $3)
     ON CONFLICT DO NOTHING RETURNING 1`,
    [listingId, userId, recordedAt],
  );
  if (inserted.length > 0) await tx.query('UPDATE listings SET install_count = install_count + 1 WHERE id = $1', [listingId]);
}
