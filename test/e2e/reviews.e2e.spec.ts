import { startTestApp, TestApp } from '../support/app';
import { Caller, newCaller } from '../support/accounts';
import { CatalogSeed } from '../support/catalog-seed';
import { json } from '../support/http';

describe('reviews', () => {
  let app: TestApp;
  let vendor: Caller;
  let alice: Caller;
  let bob: Caller;
  const base = '/v1/listings/acme/pdf-tools/reviews';

  beforeAll(async () => {
    app = await startTestApp();
    const seed = await CatalogSeed.for(app);
    [vendor, alice, bob] = await Promise.all([newCaller(app), newCaller(app, ['read']), newCaller(app, ['read'])]);
    const acme = await seed.vendor('acme', { id: vendor.userId });
    await seed.listing({ vendor: acme, slug: 'pdf-tools' });
    await seed.listing({ vendor: acme, slug: 'draft-tool', publish: false });
    const other = await seed.vendor('other');
    await seed.listing({ vendor: other, slug: 'other-tool' });
  });
  afterAll(async () => app?.close());

  it('creates one review per user, a second post edits it, and the listing rating follows', async () => {
    const created = await alice.call('POST', base, { rating: 4, body: 'Solid.' });
    expect(created.status).toBe(201);
    const { review } = await json(created);
    expect(review).toEqual({
      id: expect.any(String),
      userId: alice.userId,
      rating: 4,
      body: 'Solid.',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      helpfulCount: 0,
      reply: null,
    });
    const edited = await alice.call('POST', base, { rating: 5, body: 'Excellent.' });
    expect(edited.status).toBe(200);
    expect((await json(edited)).review).toMatchObject({ id: review.id, rating: 5, body: 'Excellent.' });
    expect((await bob.call('POST', base, { rating: 2 })).status).toBe(201);

    const list = await json(await fetch(`${app.url}${base}`));
    expect(list).toMatchObject({ rating: 3.5, ratingCount: 2, total: 2, page: 1, perPage: 20 });
    expect(list.reviews.map((r: { userId: string }) => r.userId)).toEqual([bob.userId, alice.userId]); // newest first
    expect(list.reviews[0].body).toBe('');
    const listing = await json(await fetch(`${app.url}/v1/listings/acme/pdf-tools`));
    expect(listing).toMatchObject({ rating: 3.5, ratingCount: 2, svcRating: '3.50' });
    expect(
      (await json(await fetch(`${app.url}${base}?per_page=1&page=2`))).reviews.map((r: { userId: string }) => r.userId),
    ).toEqual([alice.userId]);
  });

  it('validates ratings and bodies and refuses the vendor reviewing its own listing', async () => {
    for (const body of [
      {},
      { rating: 0 },
      { rating: 6 },
      { rating: 4.5 },
      { rating: '5' },
      { rating: 5, body: 'x'.repeat(2001) },
      { rating: 5, extra: 1 },
    ]) {
      const response = await alice.call('POST', base, body);
      expect({ body, status: response.status }).toEqual({ body, status: 400 });
    }
    const own = await vendor.call('POST', base, { rating: 5 });
    expect(own.status).toBe(422);
    expect((await json(own)).message).toMatch(/own listing/);
    expect((await alice.call('POST', '/v1/listings/acme/draft-tool/reviews', { rating: 5 })).status).toBe(404);
    expect((await alice.call('POST', '/v1/listings/acme/missing/reviews', { rating: 5 })).status).toBe(404);
    expect((await fetch(`${app.url}${base}`, { method: 'POST' })).status).toBe(401);
    const noRead = await newCaller(app, ['purchase']);
    expect((await noRead.call('POST', base, { rating: 5 })).status).toBe(403);
    expect((await fetch(`${app.url}${base}?per_page=51`)).status).toBe(400);
  });

  it('counts one helpful vote per user, changeable, and never on one’s own review', async () => {
    const { reviews } = await json(await fetch(`${app.url}${base}`));
    const alices = reviews.find((r: { userId: string }) => r.userId === alice.userId);
    const vote = (caller: Caller, helpful: unknown) => caller.call('POST', `${base}/${alices.id}/vote`, { helpful });
    expect(await json(await vote(bob, true))).toEqual({ ok: true });
    expect((await vote(bob, true)).status).toBe(200);
    expect((await vote(vendor, true)).status).toBe(200);
    const helpful = async () =>
      (await json(await fetch(`${app.url}${base}`))).reviews.find((r: { id: string }) => r.id === alices.id).helpfulCount;
    expect(await helpful()).toBe(2);
    await vote(bob, false);
    expect(await helpful()).toBe(1);
    expect((await vote(alice, true)).status).toBe(422);
    expect((await vote(bob, 'yes')).status).toBe(400);
    expect((await bob.call('POST', `/v1/listings/other/other-tool/reviews/${alices.id}/vote`, { helpful: true })).status).toBe(
      404,
    );
    expect((await bob.call('POST', `${base}/not-a-uuid/vote`, { helpful: true })).status).toBe(404);
  });

  it('lets only the listing’s vendor reply', async () => {
    const { reviews } = await json(await fetch(`${app.url}${base}`));
    const target = reviews[0];
    const rival = await newCaller(app);
    await rival.call('POST', '/v1/vendor/profile', { slug: 'rival', displayName: 'Rival' });
    expect((await rival.call('POST', `/v1/vendor/reviews/${target.id}/reply`, { body: 'Mine' })).status).toBe(404);
    expect((await alice.call('POST', `/v1/vendor/reviews/${target.id}/reply`, { body: 'Hi' })).status).toBe(403); // no sell scope
    expect((await vendor.call('POST', `/v1/vendor/reviews/${target.id}/reply`, { body: '' })).status).toBe(400);
    expect(
      await json(await vendor.call('POST', `/v1/vendor/reviews/${target.id}/reply`, { body: 'Thanks, fixed in 1.1.' })),
    ).toEqual({ ok: true });
    const after = (await json(await fetch(`${app.url}${base}`))).reviews.find((r: { id: string }) => r.id === target.id);
    expect(after.reply).toEqual({ body: 'Thanks, fixed in 1.1.', createdAt: expect.any(String) });
  });

  it('refuses a null body with a 400 naming it, storing nothing and keeping a review as it was', async () => {
    const carol = await newCaller(app, ['read']);
    const mine = async () =>
      (await json(await fetch(`${app.url}${base}?per_page=50`))).reviews.filter(
        (r: { userId: string }) => r.userId === carol.userId,
      );
    const first = await carol.call('POST', base, { rating: 5, body: null });
    expect(first.status).toBe(400);
    expect(await json(first)).toEqual({ message: 'body must not be null' });
    expect(await mine()).toEqual([]);

    expect((await carol.call('POST', base, { rating: 4, body: 'Kept.' })).status).toBe(201);
    const edit = await carol.call('POST', base, { rating: 1, body: null });
    expect(edit.status).toBe(400);
    expect((await json(edit)).message).toMatch(/^body /);
    expect(await mine()).toEqual([expect.objectContaining({ rating: 4, body: 'Kept.' })]);
  });

  it('answers ten identical posts at once (a client retrying) each with the one review it made: one 201, nine 200', async () => {
    const dave = await newCaller(app, ['read']);
    const answers = await Promise.all(Array.from({ length: 10 }, () => dave.call('POST', base, { rating: 3, body: 'Once.' })));
    const bodies = await Promise.all(answers.map((answer) => json(answer)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
    const id = bodies[0].review?.id;
    for (const body of bodies) expect(body.review).toMatchObject({ id, userId: dave.userId, rating: 3, body: 'Once.' });
    const { reviews } = await json(await fetch(`${app.url}${base}?per_page=50`));
    expect(reviews.filter((r: { userId: string }) => r.userId === dave.userId)).toEqual([expect.objectContaining({ id })]);
  });
});
