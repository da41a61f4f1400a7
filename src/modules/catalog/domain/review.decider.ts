import { Decider } from '../../../event-store/fold-stream';
import { DomainError } from '../../../platform/errors/domain-error';
import { codePointLength } from '../../../platform/text/text-rules';
import { CatalogEvents } from '../events';

/**
 * One user's review of one listing (stream `review-<listingId>-<userId>`):
 * posting again edits it. The listing's vendor may attach a reply.
 */
export const REVIEW_BODY_MAX = 2000;

export type ReviewEvent =
  | {
      type: 'ReviewPosted';
      data: { reviewId: string; listingId: string; userId: string; rating: number; body: string; postedAt: string };
    }
  | {
      type: 'ReviewEdited';
      data: {
        reviewId: string;
        listingId: string;
        userId: string;
        rating: number;
        previousRating: number;
        body: string;
        editedAt: string;
      };
    }
  | { type: 'ReviewReplied'; data: { reviewId: string; listingId: string; vendorId: string; body: string; repliedAt: string } };

export const REVIEW_EVENT_TYPES: ReviewEvent['type'][] = [
  CatalogEvents.ReviewPosted,
  CatalogEvents.ReviewEdited,
  CatalogEvents.ReviewReplied,
];

export type ReviewState = { exists: false } | { exists: true; reviewId: string; listingId: string; rating: number; body: string };

export type ReviewCommand =
  | { type: 'PostReview'; reviewId: string; listingId: string; userId: string; rating: number; body: string; now: Date }
  | { type: 'ReplyToReview'; vendorId: string; body: string; now: Date };

export function decideReview(command: ReviewCommand, state: ReviewState): ReviewEvent[] {
  switch (command.type) {
    case 'PostReview': {
      if (!Number.isInteger(command.rating) || command.rating < 1 || command.rating > 5)
        throw new DomainError('invalid', 'rating must be an integer from 1 to 5');
      if (codePointLength(command.body) > REVIEW_BODY_MAX)
        throw new DomainError('invalid', `body must be at most ${REVIEW_BODY_MAX} characters`);
      const { listingId, userId, rating, body } = command;
      if (!state.exists) {
        return [
          {
            type: CatalogEvents.ReviewPosted,
            data: { reviewId: command.reviewId, listingId, userId, rating, body, postedAt: command.now.toISOString() },
          },
        ];
      }
      if (state.rating === rating && state.body === body) return [];
      return [
        {
          type: CatalogEvents.ReviewEdited,
          data: {
            reviewId: state.reviewId,
            listingId,
            userId,
            rating,
            previousRating: state.rating,
            body,
            editedAt: command.now.toISOString(),
          },
        },
      ];
    }
    case 'ReplyToReview': {
      if (!state.exists) throw new DomainError('not_found', 'Review not found');
      const body = command.body.trim();
      if (codePointLength(body) < 1 || codePointLength(body) > REVIEW_BODY_MAX)
        throw new DomainError('invalid', `body must be 1-${REVIEW_BODY_MAX} characters`);
      return [
        {
          type: CatalogEvents.ReviewReplied,
          data: {
            reviewId: state.reviewId,
            listingId: state.listingId,
            vendorId: command.vendorId,
            body,
            repliedAt: command.now.toISOString(),
          },
        },
      ];
    }
  }
}

export function evolveReview(state: ReviewState, event: ReviewEvent): ReviewState {
  switch (event.type) {
    case CatalogEvents.ReviewPosted:
      return {
        exists: true,
        reviewId: event.data.reviewId,
        listingId: event.data.listingId,
        rating: event.data.rating,
        body: event.data.body,
      };
    case CatalogEvents.ReviewEdited:
      return state.exists ? { ...state, rating: event.data.rating, body: event.data.body } : state;
    case CatalogEvents.ReviewReplied:
      return state;
  }
}

export const reviewDecider: Decider<ReviewCommand, ReviewState, ReviewEvent> = {
  decide: decideReview,
  evolve: evolveReview,
  initialState: { exists: false },
};

export const reviewStreamId = (listingId: string, userId: string) => `review-${listingId}-${userId}`;

/** Helpful votes on one review (stream `review-votes-<reviewId>`): one per user, changeable. */
export type ReviewVoteEvent = {
  type: 'ReviewVoted';
  data: { reviewId: string; userId: string; helpful: boolean; previous: boolean | null; votedAt: string };
};

export type ReviewVotesState = Record<string, boolean>;

export const reviewVotesDecider: Decider<
  { type: 'Vote'; reviewId: string; userId: string; helpful: boolean; now: Date },
  ReviewVotesState,
  ReviewVoteEvent
> = {
  decide(command, state) {
    const previous = state[command.userId] ?? null;
    if (previous === command.helpful) return [];
    const { reviewId, userId, helpful } = command;
    return [
      { type: CatalogEvents.ReviewVoted, data: { reviewId, userId, helpful, previous, votedAt: command.now.toISOString() } },
    ];
  },
  evolve: (state, event) => ({ ...state, [event.data.userId]: event.data.helpful }),
  initialState: {},
};

export const reviewVotesStreamId = (reviewId: string) => `review-votes-${reviewId}`;
