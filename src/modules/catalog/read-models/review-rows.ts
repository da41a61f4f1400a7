/** Rows of the `reviews` read model: the columns a review answer reads and the mapper to it. */
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

export const REVIEW_COLUMNS = 'id, user_id, rating, body, created_at, updated_at, helpful_count, reply_body, replied_at';

export function toReviewRecord(row: Record<string, unknown>): ReviewRecord {
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
