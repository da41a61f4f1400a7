import {
  REVIEW_BODY_MAX,
  reviewDecider,
  ReviewCommand,
  ReviewEvent,
  reviewVotesDecider,
} from '../../../src/modules/catalog/domain/review.decider';
import { at, errorOf, givenWhenThen, t0 } from '../../support/decider';

const reviewId = 'review-1';
const listingId = 'listing-1';
const userId = 'user-1';
const vendorId = 'vendor-1';

const { fold, when, then } = givenWhenThen(reviewDecider);

const post = (rating: number, body = 'Does what it says.', now = t0, id = reviewId): ReviewCommand => ({
  type: 'PostReview',
  reviewId: id,
  listingId,
  userId,
  rating,
  body,
  now,
});
const reply = (body: string, now = at(30)): ReviewCommand => ({ type: 'ReplyToReview', vendorId, body, now });

const posted = then([], post(4));

describe('review decider', () => {
  describe('PostReview', () => {
    it('posts a new review', () => {
      expect(when([], post(4))).toEqual([
        {
          type: 'ReviewPosted',
          data: { reviewId, listingId, userId, rating: 4, body: 'Does what it says.', postedAt: t0.toISOString() },
        },
      ]);
      expect(fold(posted)).toEqual({ exists: true, reviewId, listingId, rating: 4, body: 'Does what it says.' });
    });

    it('accepts ratings 1 to 5, an empty body and one of the longest', () => {
      for (const rating of [1, 2, 3, 4, 5]) expect(when([], post(rating))).toHaveLength(1);
      expect(when([], post(5, ''))[0].data).toMatchObject({ body: '' });
      expect(when([], post(5, 'b'.repeat(REVIEW_BODY_MAX)))).toHaveLength(1);
    });

    it.each([0, 6, -1, 3.5, NaN, Infinity])('refuses the rating %s (invalid)', (rating) => {
      const error = errorOf(() => when([], post(rating)));
      expect(error.code).toBe('invalid');
      expect(error.message).toMatch(/rating/);
    });

    it('refuses a body longer than the limit (invalid)', () => {
      const error = errorOf(() => when([], post(5, 'b'.repeat(REVIEW_BODY_MAX + 1))));
      expect(error.code).toBe('invalid');
      expect(error.message).toMatch(/body/);
    });

    it('posting again edits the review, keeping its id and recording the previous rating', () => {
      const events = when(posted, post(2, 'Broke after an update.', at(10), 'review-2'));
      expect(events).toEqual([
        {
          type: 'ReviewEdited',
          data: {
            reviewId,
            listingId,
            userId,
            rating: 2,
            previousRating: 4,
            body: 'Broke after an update.',
            editedAt: at(10).toISOString(),
          },
        },
      ]);
      expect(fold([...posted, ...events])).toEqual({
        exists: true,
        reviewId,
        listingId,
        rating: 2,
        body: 'Broke after an update.',
      });
    });

    it('edits when only the rating or only the body changes', () => {
      expect(when(posted, post(5, 'Does what it says.', at(10))).map((e) => e.type)).toEqual(['ReviewEdited']);
      expect(when(posted, post(4, 'Does what it says, fast.', at(10))).map((e) => e.type)).toEqual(['ReviewEdited']);
    });

    it('changes nothing when the same review is posted again', () => {
      expect(when(posted, post(4, 'Does what it says.', at(10), 'review-2'))).toEqual([]);
      const edited = then(posted, post(3, 'Fine.', at(10)));
      expect(when(edited, post(3, 'Fine.', at(20)))).toEqual([]);
    });

    it('validates an edit as it validates a first post', () => {
      expect(errorOf(() => when(posted, post(0, 'x', at(10)))).code).toBe('invalid');
      expect(errorOf(() => when(posted, post(4, 'b'.repeat(REVIEW_BODY_MAX + 1), at(10)))).code).toBe('invalid');
    });
  });

  describe('ReplyToReview', () => {
    it('records the vendor reply, trimmed', () => {
      expect(when(posted, reply('  Thanks, fixed in 1.1.  '))).toEqual([
        {
          type: 'ReviewReplied',
          data: { reviewId, listingId, vendorId, body: 'Thanks, fixed in 1.1.', repliedAt: at(30).toISOString() },
        },
      ]);
    });

    it('leaves the review as it was', () => {
      const replied = then(posted, reply('Thanks'));
      expect(fold(replied)).toEqual(fold(posted));
    });

    it('replies to an edited review under its first id', () => {
      const edited = then(posted, post(2, 'Worse now.', at(10), 'review-2'));
      expect(when(edited, reply('Sorry'))[0].data).toMatchObject({ reviewId, listingId });
    });

    it('refuses a review that does not exist (not_found)', () => {
      expect(errorOf(() => when([], reply('Thanks'))).code).toBe('not_found');
    });

    it('refuses a body that is empty once trimmed, or too long (invalid)', () => {
      expect(errorOf(() => when(posted, reply(''))).code).toBe('invalid');
      expect(errorOf(() => when(posted, reply(' \n\t '))).code).toBe('invalid');
      expect(errorOf(() => when(posted, reply('r'.repeat(REVIEW_BODY_MAX + 1)))).code).toBe('invalid');
      expect(when(posted, reply('r'.repeat(REVIEW_BODY_MAX)))).toHaveLength(1);
      // The limit applies to what is kept, after trimming.
      expect(when(posted, reply(` ${'r'.repeat(REVIEW_BODY_MAX)} `))).toHaveLength(1);
    });

    it('records a later reply too: the latest one stands', () => {
      const replied = then(posted, reply('Thanks'));
      expect(when(replied, reply('Fixed in 1.1.', at(40)))).toEqual([
        expect.objectContaining({ type: 'ReviewReplied', data: expect.objectContaining({ body: 'Fixed in 1.1.' }) }),
      ]);
    });
  });

  describe('evolve', () => {
    it('ignores an edit or a reply with no review before it', () => {
      const edit: ReviewEvent = {
        type: 'ReviewEdited',
        data: { reviewId, listingId, userId, rating: 1, previousRating: 4, body: 'x', editedAt: t0.toISOString() },
      };
      const replied: ReviewEvent = {
        type: 'ReviewReplied',
        data: { reviewId, listingId, vendorId, body: 'x', repliedAt: t0.toISOString() },
      };
      expect(fold([edit, replied])).toEqual({ exists: false });
    });

    it('folds a whole history to the latest rating and body', () => {
      const history = then(then(then(posted, post(2, 'Worse.', at(10))), reply('Sorry', at(20))), post(5, 'Fixed!', at(30)));
      expect(history.map((e) => e.type)).toEqual(['ReviewPosted', 'ReviewEdited', 'ReviewReplied', 'ReviewEdited']);
      expect(history[3].data).toMatchObject({ rating: 5, previousRating: 2 });
      expect(fold(history)).toEqual({ exists: true, reviewId, listingId, rating: 5, body: 'Fixed!' });
    });
  });
});

describe('review votes decider', () => {
  const votes = givenWhenThen(reviewVotesDecider);
  const vote = (helpful: boolean, voter = 'voter-1', now = at(50)) => ({
    type: 'Vote' as const,
    reviewId,
    userId: voter,
    helpful,
    now,
  });

  it('records a first vote, with no previous one', () => {
    expect(votes.when([], vote(true))).toEqual([
      {
        type: 'ReviewVoted',
        data: { reviewId, userId: 'voter-1', helpful: true, previous: null, votedAt: at(50).toISOString() },
      },
    ]);
    expect(votes.fold(votes.then([], vote(true)))).toEqual({ 'voter-1': true });
  });

  it('records a first vote that the review is not helpful', () => {
    expect(votes.when([], vote(false))[0].data).toMatchObject({ helpful: false, previous: null });
  });

  it('changes a vote, recording the previous one', () => {
    const voted = votes.then([], vote(true));
    const events = votes.when(voted, vote(false, 'voter-1', at(60)));
    expect(events).toEqual([
      {
        type: 'ReviewVoted',
        data: { reviewId, userId: 'voter-1', helpful: false, previous: true, votedAt: at(60).toISOString() },
      },
    ]);
    expect(votes.fold([...voted, ...events])).toEqual({ 'voter-1': false });
  });

  it('changes nothing when the same vote is cast again', () => {
    const voted = votes.then([], vote(true));
    expect(votes.when(voted, vote(true, 'voter-1', at(60)))).toEqual([]);
    const changed = votes.then(voted, vote(false, 'voter-1', at(60)));
    expect(votes.when(changed, vote(false, 'voter-1', at(70)))).toEqual([]);
  });

  it('keeps one vote per user', () => {
    const history = votes.then(votes.then(votes.then([], vote(true, 'voter-1')), vote(true, 'voter-2')), vote(false, 'voter-1'));
    expect(votes.when(history, vote(true, 'voter-2'))).toEqual([]);
    expect(votes.fold(history)).toEqual({ 'voter-1': false, 'voter-2': true });
  });
});
