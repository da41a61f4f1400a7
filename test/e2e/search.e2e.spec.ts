import { DataSource } from 'typeorm';
import { SearchHistoryPruning } from '../../src/modules/catalog/read-models/search-history-pruning';
import { Queues } from '../../src/platform/queue/queues';
import { startTestApp, TestApp } from '../support/app';
import { eventually } from '../support/accounts';
import { CatalogSeed, SeedVendor } from '../support/catalog-seed';
import { json } from '../support/http';

describe('GET /v1/search', () => {
  let app: TestApp;
  let seed: CatalogSeed;
  let acme: SeedVendor;
  let zeta: SeedVendor;
  const ids: Record<string, string> = {};

  const search = async (query: string) => {
    const response = await fetch(`${app.url}/v1/search${query ? `?${query}` : ''}`);
    return { status: response.status, body: await json(response) };
  };
  const slugs = async (query: string) => {
    const { status, body } = await search(query);
    expect({ query, status }).toEqual({ query, status: 200 });
    return body.results.map((r: { slug: string }) => r.slug);
  };

  beforeAll(async () => {
    app = await startTestApp();
    seed = await CatalogSeed.for(app);
    acme = await seed.vendor('acme', { displayName: 'Acme Tools', verified: true });
    zeta = await seed.vendor('zeta', { displayName: 'Zeta Labs' });
    const t = (minutes: number) => new Date(Date.UTC(2026, 10, 1, 12, minutes));
    const listings = [
      {
        slug: 'pdf-tools',
        title: 'PDF tools',
        description: 'Extract text and tables from PDF documents.',
        tags: ['pdf', 'documents'],
        targets: ['claude-code', 'cursor'],
        tools: ['extract_text'],
        priceCents: 0,
        vendor: acme,
        at: t(1),
        signedWith: 'f'.repeat(64),
      },
      {
        slug: 'csv-wrangler',
        title: 'CSV wrangler',
        description: 'Clean and reshape spreadsheets.',
        tags: ['csv', 'data'],
        targets: ['cursor'],
        priceCents: 500,
        vendor: acme,
        at: t(2),
      },
      {
        slug: 'code-review-rules',
        title: 'Code review rules',
        description: 'Strict review checklist for pull requests.',
        type: 'rule',
        tags: ['review'],
        targets: ['codex', 'cursor'],
        priceCents: 1500,
        vendor: zeta,
        at: t(3),
      },
      {
        slug: 'weather-mcp',
        title: 'Weather service',
        description: 'Forecasts for agents.',
        type: 'mcp',
        tags: ['weather', 'data'],
        targets: ['generic'],
        tools: ['forecast', 'alerts'],
        priceCents: 250,
        vendor: zeta,
        at: t(4),
        readmeMd: '# Weather\n\nUses the national meteorological feeds.',
        changes: {
          serviceEndpoint: 'https://weather.zeta.example/mcp',
          serviceProtocol: 'mcp' as const,
          settlementMethods: ['wallet' as const],
        },
      },
      {
        slug: 'starter-template',
        title: 'Starter template',
        description: 'A project skeleton.',
        type: 'template',
        tags: ['starter'],
        targets: ['windsurf'],
        priceCents: 0,
        vendor: zeta,
        at: t(5),
        scan: 'flagged' as const,
      },
      { slug: 'draft-only', title: 'Draft PDF thing', description: 'Never public.', tags: ['pdf'], vendor: acme, publish: false },
      {
        slug: 'failed-scan',
        title: 'Failed PDF thing',
        description: 'Never public.',
        tags: ['pdf'],
        vendor: acme,
        scan: 'failed' as const,
      },
      {
        slug: 'hidden-pdf',
        title: 'Unlisted PDF thing',
        description: 'Reachable by address only.',
        tags: ['pdf'],
        vendor: acme,
        changes: { status: 'unlisted' as const },
      },
    ];
    for (const spec of listings) ids[spec.slug] = (await seed.listing(spec)).listingId;
    await seed.installs(ids['csv-wrangler'], 5);
    await seed.installs(ids['pdf-tools'], 3);
    await seed.installs(ids['weather-mcp'], 1);
  });
  afterAll(async () => app?.close());

  it('lists only public, published listings, most popular first, with every field', async () => {
    const { body } = await search('');
    expect(body).toMatchObject({ total: 5, page: 1, perPage: 20, nextCursor: null });
    expect(body.results.map((r: { slug: string }) => r.slug)).toEqual(
      ['csv-wrangler', 'pdf-tools', 'weather-mcp', 'starter-template', 'code-review-rules']
        .slice(0, 3)
        .concat(['starter-template', 'code-review-rules'].sort((a, b) => (ids[a] < ids[b] ? 1 : -1))),
    );
    expect(body.results[1]).toEqual({
      id: ids['pdf-tools'],
      vendorSlug: 'acme',
      slug: 'pdf-tools',
      title: 'PDF tools',
      description: 'Extract text and tables from PDF documents.',
      type: 'skill',
      tags: ['pdf', 'documents'],
      targets: ['claude-code', 'cursor'],
      priceCents: 0,
      currency: 'usd',
      latestVersion: '1.0.0',
      installCount: 3,
      svcRating: '0.00',
      vendorName: 'Acme Tools',
      vendorVerified: true,
    });
  });

  it('matches full text with prefixes and websearch syntax', async () => {
    expect(await slugs('q=pdf-to')).toEqual(['pdf-tools']);
    expect(await slugs('q=spreadsheet')).toEqual(['csv-wrangler']);
    expect(await slugs('q=meteorological')).toEqual(['weather-mcp']); // from the README
    expect(await slugs('q=zeta labs&sort=price_asc')).toEqual(['starter-template', 'weather-mcp', 'code-review-rules']); // vendor name
    expect(await slugs('q=pdf or csv&sort=popular')).toEqual(['csv-wrangler', 'pdf-tools']);
    expect(await slugs('q="review checklist"')).toEqual(['code-review-rules']);
    expect(await slugs('q=data -weather')).toEqual(['csv-wrangler']);
    expect(await slugs("q=it's the")).toHaveLength(5); // stop words only: no text filter
    expect(await slugs('q=nothing-matches-this')).toEqual([]);
  });

  it('applies every filter', async () => {
    expect(await slugs('type=rule')).toEqual(['code-review-rules']);
    expect(await slugs('target=cursor&sort=price_asc')).toEqual(['pdf-tools', 'csv-wrangler', 'code-review-rules']);
    expect(await slugs('free=true&sort=price_asc&q=pdf or starter')).toEqual(
      expect.arrayContaining(['pdf-tools', 'starter-template']),
    );
    expect(await slugs('free=true')).toHaveLength(2);
    expect(await slugs('tool=forecast')).toEqual(['weather-mcp']);
    expect(await slugs('tags=data')).toEqual(['csv-wrangler', 'weather-mcp']);
    expect(await slugs('tags=data,weather')).toEqual(['weather-mcp']); // every tag must match
    expect(await slugs('live=true')).toEqual(['weather-mcp']);
    expect(await slugs('protocol=mcp')).toEqual(['weather-mcp']);
    expect(await slugs('settlement=wallet')).toEqual(['weather-mcp']);
    expect(await slugs('verified=true')).toEqual(['csv-wrangler', 'pdf-tools']);
    expect(await slugs('verified=false')).toHaveLength(5);
  });

  it('sorts every way', async () => {
    expect(await slugs('sort=recent')).toEqual([
      'starter-template',
      'weather-mcp',
      'code-review-rules',
      'csv-wrangler',
      'pdf-tools',
    ]);
    expect(await slugs('sort=price_desc')).toEqual([
      'code-review-rules',
      'csv-wrangler',
      'weather-mcp',
      ...(await slugs('free=true&sort=price_desc')),
    ]);
    const trusted = await slugs('sort=trusted');
    // Verified, signed, passed and installed beats the rest.
    expect(trusted[0]).toBe('pdf-tools');
    expect(trusted.indexOf('starter-template')).toBeGreaterThan(trusted.indexOf('code-review-rules')); // flagged scan
    expect(await slugs('sort=rated')).toHaveLength(5);
  });

  it('pages with total and per_page, and refuses out-of-range parameters with 400', async () => {
    const first = await search('per_page=2');
    expect(first.body).toMatchObject({ total: 5, page: 1, perPage: 2 });
    const second = await search('per_page=2&page=2');
    expect(second.body.results.map((r: { slug: string }) => r.slug)).toEqual((await slugs('per_page=5')).slice(2, 4));
    for (const query of [
      'per_page=0',
      'per_page=51',
      'page=0',
      'page=x',
      'sort=cheap',
      'type=plugin',
      'target=vim',
      'free=maybe',
      'protocol=grpc',
      'settlement=cash',
      'cursor=garbage',
      'color=red',
      `q=${'x'.repeat(201)}`,
      'tags=a,b,c,d,e,f,g,h,i,j,k',
    ]) {
      const { status, body } = await search(query);
      expect({ query, status, message: typeof body.message }).toEqual({ query, status: 400, message: 'string' });
    }
  });

  it('walks with a cursor: every listing once, in order, with total and page null', async () => {
    const walked: string[] = [];
    let { body } = await search('per_page=2&sort=popular');
    walked.push(...body.results.map((r: { slug: string }) => r.slug));
    while (body.nextCursor) {
      ({ body } = await search(`per_page=2&sort=popular&cursor=${body.nextCursor}`));
      expect(body).toMatchObject({ total: null, page: null, perPage: 2 });
      walked.push(...body.results.map((r: { slug: string }) => r.slug));
    }
    expect(walked).toEqual(await slugs('per_page=50&sort=popular'));
    const { body: first } = await search('per_page=2');
    expect((await search(`per_page=2&sort=recent&cursor=${first.nextCursor}`)).status).toBe(400); // another search's cursor
  });
});

describe('GET /v1/search while the catalogue changes', () => {
  let app: TestApp;
  let seed: CatalogSeed;
  let vendor: SeedVendor;
  const listingIds: string[] = [];

  beforeAll(async () => {
    app = await startTestApp();
    seed = await CatalogSeed.for(app);
    vendor = await seed.vendor('walker', { displayName: 'Walker' });
    for (let i = 0; i < 40; i++) {
      const { listingId } = await seed.listing({ vendor, slug: `pkg-${i}`, priceCents: (i % 7) * 100, title: `Package ${i}` });
      listingIds.push(listingId);
      if (i % 3 === 0) await seed.installs(listingId, i % 5);
    }
  });
  afterAll(async () => app?.close());

  const page = async (query: string) => json(await fetch(`${app.url}/v1/search?${query}`));

  it.each(['popular', 'price_asc', 'price_desc', 'trusted', 'recent', 'rated'])(
    'returns every listing exactly once when following nextCursor (sort=%s), despite installs, price changes and new listings',
    async (sort) => {
      const searchable = await app.server.app.get(DataSource).query('SELECT id FROM listings WHERE searchable');
      const expected = new Set(searchable.map((r: { id: string }) => r.id));
      const seen: string[] = [];
      let body = await page(`sort=${sort}&per_page=3`);
      seen.push(...body.results.map((r: { id: string }) => r.id));
      let round = 0;
      while (body.nextCursor) {
        // Reorder the catalogue under the walk: a listing already passed jumps ahead, one not yet reached falls back.
        const target = listingIds[(round * 7) % listingIds.length];
        await seed.installs(target, 6);
        await seed.update(listingIds[(round * 11 + 5) % listingIds.length], vendor, { priceCents: (round % 4) * 250 });
        await seed.listing({ vendor, slug: `late-${sort}-${round}`, priceCents: 50 });
        round++;
        body = await page(`sort=${sort}&per_page=3&cursor=${body.nextCursor}`);
        seen.push(...body.results.map((r: { id: string }) => r.id));
      }
      expect(seen.length).toBe(new Set(seen).size);
      expect(new Set(seen)).toEqual(expected);
    },
  );

  it('schedules the pruning and the verification re-checks as repeating jobs', async () => {
    const queues = app.server.app.get(Queues);
    for (const name of ['search-history-pruning', 'vendor-verification-recheck']) {
      const scheduler = await eventually(async () => (await queues.queue(name).getJobScheduler(name)) ?? false, {
        description: `the ${name} job scheduler`,
      });
      expect(scheduler).toMatchObject({ key: name });
    }
  });

  it('prunes ordering history no cursor can read any more', async () => {
    const db = app.server.app.get(DataSource);
    const [{ count }] = await db.query('SELECT count(*)::int AS count FROM listing_search_history');
    expect(count).toBeGreaterThan(0);
    await db.query(`UPDATE listing_search_history SET recorded_at = now() - interval '3 hours' WHERE valid_until_seq % 2 = 0`);
    const [{ old }] = await db.query(
      `SELECT count(*)::int AS old FROM listing_search_history WHERE recorded_at < now() - interval '1 hour'`,
    );
    expect(await app.server.app.get(SearchHistoryPruning).runOnce()).toBe(old);
    const [{ left }] = await db.query('SELECT count(*)::int AS left FROM listing_search_history');
    expect(left).toBe(count - old);
  });

  it('ranks title matches above README-only matches', async () => {
    await seed.listing({ vendor, slug: 'readme-pdf', title: 'Document converter', readmeMd: 'Converts a PDF to text.' });
    await seed.listing({ vendor, slug: 'title-pdf', title: 'PDF splitter' });
    const { results } = await page('q=pdf');
    expect(results.map((r: { slug: string }) => r.slug)).toEqual(['title-pdf', 'readme-pdf']);
  });
});

describe('GET /v1/search result cache', () => {
  it('serves repeated searches from memory yet shows another instance’s changes within SEARCH_CACHE_MS', async () => {
    const writer = await startTestApp();
    const reader = await startTestApp({ db: writer.db, env: { RUN_PROCESSORS: 'false', SEARCH_CACHE_MS: '200' } });
    try {
      const seed = await CatalogSeed.for(writer);
      const vendor = await seed.vendor('cache-vendor');
      await seed.listing({ vendor, slug: 'first' });
      const slugs = async () =>
        (await json(await fetch(`${reader.url}/v1/search?q=first or second`))).results.map((r: { slug: string }) => r.slug);
      expect(await slugs()).toEqual(['first']);
      await seed.listing({ vendor, slug: 'second' });
      await eventually(async () => expect((await slugs()).sort()).toEqual(['first', 'second']), {
        timeoutMs: 5_000,
        description: 'the other instance to show the new listing',
      });
    } finally {
      await reader.close();
      await writer.close();
    }
  });
});
