import { randomUUID } from 'node:crypto';
import { EventStore } from '../../src/event-store/event-store';
import { decideOnStream } from '../../src/event-store/fold-stream';
import { trackWrites } from '../../src/event-store/write-tracker';
import { listingDecider, listingStreamId, ScanOutcome } from '../../src/modules/catalog/domain/listing.decider';
import { reviewDecider, reviewStreamId } from '../../src/modules/catalog/domain/review.decider';
import { ManualClock } from '../../src/platform/clock/clock';
import { ProjectionWaiter } from '../../src/projections/read-your-writes';
import { startTestApp, TestApp } from '../support/app';
import { CatalogSeed, SeedVendor } from '../support/catalog-seed';
import { json } from '../support/http';

const NOW = new Date('2026-03-10T12:00:00.000Z');
const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const ago = (ms: number) => new Date(NOW.getTime() - ms);
const CREATED = ago(30 * DAY);

/**
 * Listings (all created 30 days ago):
 *   alpha   skill    acme (verified)  installs: 3 two hours ago, 2 three days ago, 4 ten days ago      -> total 9, 24h 3, 7d 5
 *   beta    rule     zeta             installs: 4 twenty-three hours ago; ratings 1, 2                -> total 4, 24h 4, 7d 4
 *   gamma   mcp      zeta             one user: 1h ago + 30 min ago (same day, once), 2 days ago; ratings 5, 5, 5 -> total 2, 24h 1, 7d 2
 *   delta   template acme (verified)  installs: 6 ten days ago; rating 4                            -> total 6, 24h 0, 7d 0
 *   epsilon skill    zeta             flagged scan, no installs
 * Never ranked: a draft, an unlisted listing and a failed scan, each with recent installs.
 * Newer uploads: beta 1.1.0 failed its scan; delta 2.0.0 is still pending.
 */
describe('GET /v1/leaderboard and GET /v1/audits', () => {
  const clock = new ManualClock(NOW);
  let app: TestApp;
  let seed: CatalogSeed;
  let store: EventStore;
  let waiter: ProjectionWaiter;
  let acme: SeedVendor;
  let zeta: SeedVendor;
  const ids: Record<string, string> = {};

  const get = async (path: string) => {
    const response = await fetch(`${app.url}${path}`);
    return { status: response.status, body: await json(response) };
  };
  const ok = async (path: string) => {
    const { status, body } = await get(path);
    expect({ path, status }).toEqual({ path, status: 200 });
    return body;
  };
  const ranked = async (query: string) =>
    (await ok(`/v1/leaderboard${query}`)).rankings.map((r: { listing: { slug: string } }) => r.listing.slug);
  const audited = async (query: string) => (await ok(`/v1/audits${query}`)).audits.map((a: { slug: string }) => a.slug);

  const settled = async (work: () => Promise<unknown>) => {
    const { lastPosition, eventTypes } = await trackWrites(work);
    if (lastPosition && !(await waiter.waitFor(lastPosition, eventTypes, 20_000)))
      throw new Error('projections did not catch up');
  };
  const review = (listingId: string, rating: number) =>
    settled(() => {
      const userId = randomUUID();
      return decideOnStream(store, reviewStreamId(listingId, userId), reviewDecider, {
        type: 'PostReview',
        reviewId: randomUUID(),
        listingId,
        userId,
        rating,
        body: '',
        now: ago(20 * DAY),
      });
    });
  /** A newer release of an existing listing, scanned when an outcome is given. */
  const upload = (
    listingId: string,
    vendor: SeedVendor,
    slug: string,
    type: string,
    version: string,
    at: Date,
    scan?: ScanOutcome,
  ) =>
    settled(async () => {
      const releaseId = randomUUID();
      await decideOnStream(store, listingStreamId(listingId), listingDecider, {
        type: 'UploadRelease',
        listingId,
        vendorId: vendor.id,
        slug,
        releaseId,
        content: {
          version,
          type,
          title: slug,
          description: `The ${slug} package.`,
          tags: [],
          targets: ['cursor'],
          tools: [],
          readmeMd: null,
        },
        archiveSha256: 'b'.repeat(64),
        sizeBytes: 1000,
        priceCents: 0,
        signedWith: null,
        now: at,
      });
      if (scan)
        await decideOnStream(store, listingStreamId(listingId), listingDecider, {
          type: 'RecordScan',
          releaseId,
          outcome: scan,
          now: at,
        });
    });

  beforeAll(async () => {
    app = await startTestApp({ clock });
    seed = await CatalogSeed.for(app);
    store = app.server.app.get(EventStore);
    waiter = app.server.app.get(ProjectionWaiter);

    acme = await seed.vendor('acme', { displayName: 'Acme Tools', verified: true });
    zeta = await seed.vendor('zeta', { displayName: 'Zeta Labs' });
    const listings = [
      { slug: 'alpha', title: 'Alpha', type: 'skill', vendor: acme, targets: ['claude-code', 'cursor'], priceCents: 500 },
      { slug: 'beta', title: 'Beta', type: 'rule', vendor: zeta },
      { slug: 'gamma', title: 'Gamma', type: 'mcp', vendor: zeta },
      { slug: 'delta', title: 'Delta', type: 'template', vendor: acme },
      { slug: 'epsilon', title: 'Epsilon', type: 'skill', vendor: zeta, scan: 'flagged' as const },
      { slug: 'drafty', title: 'Drafty', type: 'skill', vendor: acme, publish: false },
      { slug: 'hidden', title: 'Hidden', type: 'skill', vendor: acme, changes: { status: 'unlisted' as const } },
      { slug: 'unsafe', title: 'Unsafe', type: 'skill', vendor: acme, scan: 'failed' as const },
    ];
    for (const spec of listings) ids[spec.slug] = (await seed.listing({ ...spec, at: CREATED })).listingId;

    // Reviews before installs, so every listing with installs derives its Bayesian rating from the final catalog mean.
    for (const rating of [5, 5, 5]) await review(ids.gamma, rating);
    await review(ids.delta, 4);
    for (const rating of [1, 2]) await review(ids.beta, rating);

    await seed.installs(ids.alpha, 3, ago(2 * HOUR));
    await seed.installs(ids.alpha, 2, ago(3 * DAY));
    await seed.installs(ids.alpha, 4, ago(10 * DAY));
    await seed.installs(ids.beta, 4, ago(23 * HOUR));
    const user = randomUUID();
    await seed.install(ids.gamma, user, ago(HOUR));
    await seed.install(ids.gamma, user, ago(HOUR / 2)); // same UTC day: counts once
    await seed.install(ids.gamma, user, ago(2 * DAY)); // another day: counts again
    await seed.installs(ids.delta, 6, ago(10 * DAY));
    for (const slug of ['drafty', 'hidden', 'unsafe']) await seed.installs(ids[slug], 10, ago(HOUR));

    await upload(ids.beta, zeta, 'beta', 'rule', '1.1.0', ago(DAY), {
      status: 'failed',
      label: 'unsafe',
      qualityScore: 12,
      findings: [{ check: 'paths', severity: 'failure', message: 'unsafe path', file: '../x' }],
      checks: [{ check: 'paths', ok: false }],
      promptGuard: { ran: true, verified: false, perFile: [{ file: 'SKILL.md', label: 'injection', score: 0.97 }] },
    });
    await upload(ids.delta, acme, 'delta', 'template', '2.0.0', ago(DAY));
  });
  afterAll(async () => app?.close());
  afterEach(() => clock.set(NOW));

  describe('leaderboard', () => {
    it('ranks by rating by default, over published listings only, with every field', async () => {
      const body = await ok('/v1/leaderboard');
      expect(body).toMatchObject({ total: 5, totalInstalls: 21, window: 'all', generatedAt: NOW.toISOString() });
      expect(
        body.rankings.map((r: { rank: number; listing: { slug: string; svcRating: number } }) => [
          r.rank,
          r.listing.slug,
          r.listing.svcRating,
        ]),
      ).toEqual([
        [1, 'gamma', 5],
        [2, 'delta', 4],
        [3, 'alpha', 0],
        [4, 'epsilon', 0],
        [5, 'beta', 1.5],
      ]);
      expect(await ranked('?window=all')).toEqual(['gamma', 'delta', 'alpha', 'epsilon', 'beta']);
    });

    it('ranks trending by installs over 7 days and hot by installs over 24 hours', async () => {
      const trending = await ok('/v1/leaderboard?window=trending');
      expect(trending).toMatchObject({ total: 5, totalInstalls: 21, window: 'trending', generatedAt: NOW.toISOString() });
      const counts = (body: {
        rankings: { listing: { slug: string; installCount: number; installs24h: number; installs7d: number } }[];
      }) => body.rankings.map(({ listing: l }) => [l.slug, l.installCount, l.installs24h, l.installs7d]);
      expect(counts(trending)).toEqual([
        ['alpha', 9, 3, 5],
        ['beta', 4, 4, 4],
        ['gamma', 2, 1, 2],
        ['delta', 6, 0, 0],
        ['epsilon', 0, 0, 0],
      ]);
      expect(trending.rankings[0]).toEqual({
        rank: 1,
        listing: {
          vendor: 'acme',
          slug: 'alpha',
          title: 'Alpha',
          description: 'The alpha package.',
          type: 'skill',
          targets: ['claude-code', 'cursor'],
          priceCents: 500,
          currency: 'usd',
          svcRating: 0,
          installCount: 9,
          installs24h: 3,
          installs7d: 5,
          latestVersion: '1.0.0',
          vendorName: 'Acme Tools',
          vendorVerified: true,
        },
      });
      const hot = await ok('/v1/leaderboard?window=hot');
      expect(hot.window).toBe('hot');
      expect(counts(hot).map(([slug]) => slug)).toEqual(['beta', 'alpha', 'gamma', 'delta', 'epsilon']);
    });

    it('counts windows back from the clock', async () => {
      clock.advance(DAY);
      const hot = await ok('/v1/leaderboard?window=hot');
      expect(hot.generatedAt).toBe(new Date(NOW.getTime() + DAY).toISOString());
      // Nothing in the last 24 hours: ties fall to the 7-day count, then all-time installs.
      expect(
        hot.rankings.map((r: { listing: { slug: string; installs24h: number; installs7d: number } }) => [
          r.listing.slug,
          r.listing.installs24h,
          r.listing.installs7d,
        ]),
      ).toEqual([
        ['alpha', 0, 5],
        ['beta', 0, 4],
        ['gamma', 0, 2],
        ['delta', 0, 0],
        ['epsilon', 0, 0],
      ]);
    });

    it('filters by type', async () => {
      expect(await ok('/v1/leaderboard?type=skill')).toMatchObject({ total: 2, totalInstalls: 9 });
      expect(await ranked('?type=skill')).toEqual(['alpha', 'epsilon']);
      expect(await ranked('?type=mcp&window=hot')).toEqual(['gamma']);
      expect(await ok('/v1/leaderboard?type=bundle')).toEqual({
        rankings: [],
        total: 0,
        totalInstalls: 0,
        window: 'all',
        generatedAt: NOW.toISOString(),
      });
    });

    it('pages with limit and offset, numbering ranks from the offset', async () => {
      const page = await ok('/v1/leaderboard?window=trending&limit=2&offset=1');
      expect(page.total).toBe(5);
      expect(page.rankings.map((r: { rank: number; listing: { slug: string } }) => [r.rank, r.listing.slug])).toEqual([
        [2, 'beta'],
        [3, 'gamma'],
      ]);
      expect(await ok('/v1/leaderboard?offset=10')).toMatchObject({ rankings: [], total: 5, totalInstalls: 21 });
      expect(await ranked('?limit=200')).toHaveLength(5);
    });

    it('rejects out-of-range and unknown parameters with 400', async () => {
      for (const query of [
        'limit=0',
        'limit=201',
        'limit=abc',
        'offset=-1',
        'offset=10001',
        'window=weekly',
        'type=plugin',
        'sort=rated',
      ]) {
        const { status, body } = await get(`/v1/leaderboard?${query}`);
        expect({ query, status, message: typeof body.message }).toEqual({ query, status: 400, message: 'string' });
      }
    });
  });

  describe('audits', () => {
    it("lists published listings with their latest upload's scan, most installed first", async () => {
      const body = await ok('/v1/audits');
      expect(body.total).toBe(5);
      expect(body.generatedAt).toBe(NOW.toISOString());
      expect(
        body.audits.map((a: { rank: number; slug: string; scan: { status: string } }) => [a.rank, a.slug, a.scan.status]),
      ).toEqual([
        [1, 'alpha', 'passed'],
        [2, 'delta', 'pending'],
        [3, 'beta', 'failed'],
        [4, 'gamma', 'passed'],
        [5, 'epsilon', 'flagged'],
      ]);
      expect(body.audits[0]).toEqual({
        rank: 1,
        vendor: 'acme',
        slug: 'alpha',
        title: 'Alpha',
        type: 'skill',
        vendorVerified: true,
        svcRating: 0,
        installCount: 9,
        scan: { status: 'passed', label: 'clean', qualityScore: 70, version: '1.0.0', scannedAt: CREATED.toISOString() },
        promptGuard: { ran: true, verified: true, perFile: [{ file: 'README.md', label: 'benign', score: 0.02 }] },
      });
      expect(body.audits[1]).toEqual({
        rank: 2,
        vendor: 'acme',
        slug: 'delta',
        title: 'Delta',
        type: 'template',
        vendorVerified: true,
        svcRating: 4,
        installCount: 6,
        scan: { status: 'pending', label: 'pending', qualityScore: 0, version: '2.0.0', scannedAt: null },
        promptGuard: { ran: false, verified: false, perFile: [] },
      });
      expect(body.audits[2]).toEqual({
        rank: 3,
        vendor: 'zeta',
        slug: 'beta',
        title: 'Beta',
        type: 'rule',
        vendorVerified: false,
        svcRating: 1.5,
        installCount: 4,
        scan: { status: 'failed', label: 'unsafe', qualityScore: 12, version: '1.1.0', scannedAt: ago(DAY).toISOString() },
        promptGuard: { ran: true, verified: false, perFile: [{ file: 'SKILL.md', label: 'injection', score: 0.97 }] },
      });
      // The listing itself still serves its published release.
      const leaderboard = await ok('/v1/leaderboard?type=rule');
      expect(leaderboard.rankings[0].listing).toMatchObject({ slug: 'beta', latestVersion: '1.0.0' });
    });

    it('filters by scan status and type', async () => {
      expect(await audited('?status=passed')).toEqual(['alpha', 'gamma']);
      expect(await audited('?status=flagged')).toEqual(['epsilon']);
      expect(await audited('?status=failed')).toEqual(['beta']);
      expect(await audited('?status=pending')).toEqual(['delta']);
      expect(await audited('?type=skill')).toEqual(['alpha', 'epsilon']);
      expect(await audited('?type=skill&status=flagged')).toEqual(['epsilon']);
      expect(await ok('/v1/audits?type=bundle')).toEqual({ audits: [], total: 0, generatedAt: NOW.toISOString() });
      expect((await ok('/v1/audits?status=passed')).total).toBe(2);
    });

    it('pages with limit and offset', async () => {
      const page = await ok('/v1/audits?limit=2&offset=1');
      expect(page.total).toBe(5);
      expect(page.audits.map((a: { rank: number; slug: string }) => [a.rank, a.slug])).toEqual([
        [2, 'delta'],
        [3, 'beta'],
      ]);
      expect(await audited('?limit=100')).toHaveLength(5);
      expect(await ok('/v1/audits?offset=50')).toMatchObject({ audits: [], total: 5 });
    });

    it('rejects out-of-range and unknown parameters with 400', async () => {
      for (const query of ['limit=0', 'limit=101', 'offset=-1', 'status=clean', 'type=plugin', 'window=all']) {
        const { status, body } = await get(`/v1/audits?${query}`);
        expect({ query, status, message: typeof body.message }).toEqual({ query, status: 400, message: 'string' });
      }
    });
  });
});
