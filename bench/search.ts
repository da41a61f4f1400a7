import autocannon from 'autocannon';
import { Pool } from 'pg';
import { startServer } from '../src/bootstrap';
import { loadConfig } from '../src/config/app-config';

export const LISTINGS = Number(process.env.BENCH_LISTINGS ?? 100_000);
const VENDORS = 500;
/** One listing in this many is a live MCP service (0.5% of the catalogue). */
const LIVE_EVERY = 200;

const WORDS = `pdf text extract table ocr scan document invoice receipt spreadsheet csv excel json yaml parse convert
  markdown html render template scaffold starter project react vue svelte angular node python rust go java kotlin swift
  test unit integration coverage lint format refactor review commit branch merge release deploy docker kubernetes helm
  terraform aws azure gcp cloud storage bucket queue cache redis postgres mysql sqlite mongo search index vector embedding
  prompt agent assistant chat memory context tool plugin server client api rest graphql grpc webhook auth oauth token
  secret vault encrypt sign verify audit log metric trace monitor alert incident oncall runbook security compliance policy
  email calendar slack discord notion jira github gitlab linear figma design image video audio transcribe translate
  summarize classify sentiment weather finance stock crypto payment billing subscription analytics dashboard report chart
  schedule cron backup migrate sync fetch crawl scrape browser automation workflow pipeline data etl clean validate
  schema model train evaluate benchmark latency fast safe simple robust minimal powerful friendly`
  .split(/\s+/)
  .filter(Boolean);

const TYPES = ['skill', 'rule', 'bundle', 'template', 'mcp'];
const TARGETS = ['cursor', 'claude-code', 'codex', 'gemini-cli', 'windsurf', 'generic'];

/** Everyday README words, most of which a search would not ask for. */
const FILLER = `install usage example examples configure configuration option options file files command commands run runs
  output input default value values set setting settings environment variable variables path directory folder version
  update upgrade support supported feature features note notes see also more information guide quick start step steps
  first then next finally create add remove list show get use using used works work working need needs required optional
  return returns result results error errors message messages check checks make makes build built local remote user users
  team teams project projects open source license contributing issue issues question questions help docs documentation`
  .split(/\s+/)
  .filter(Boolean);

/**
 * Seeds the read model directly (the projection's trigger still derives the
 * search document, trust and ordering history for every row): replaying
 * 100,000 listings through the log would measure the projection, not search.
 * Each listing draws about 17 of 200 domain words and a README of mostly
 * everyday words, so a query term matches some 8% of the catalogue; one in
 * 200 is a live service.
 */
export async function seedCatalogue(pool: Pool): Promise<void> {
  const live = (n: string, value: string) => `CASE WHEN ${n} % ${LIVE_EVERY} = 0 THEN ${value} END`;
  const array = (words: string[]) => `ARRAY[${words.map((w) => `'${w}'`).join(',')}]`;
  // The `0 * n` ties each draw to its generated row, so it is drawn again for every row.
  const domain = (n: string) => `(${array(WORDS)})[1 + floor(random() * ${WORDS.length})::int + 0 * ${n}]`;
  const filler = (n: string) => `(${array(FILLER)})[1 + floor(random() * ${FILLER.length})::int + 0 * ${n}]`;
  const phrase = (count: number, draw: (n: string) => string, n: string) =>
    `(SELECT string_agg(${draw('k')}, ' ') FROM generate_series(1, ${count}) k WHERE k > 0 * ${n})`;
  await pool.query(`
    INSERT INTO catalog_vendors (vendor_id, slug, display_name, domain_verified)
    SELECT gen_random_uuid(), 'vendor-' || i, initcap(${domain('i')}) || ' ' || initcap(${filler('i')}) || ' Labs', i % 4 = 0
    FROM generate_series(1, ${VENDORS}) i`);
  const BATCH = 5_000;
  for (let from = 1; from <= LISTINGS; from += BATCH) {
    const to = Math.min(LISTINGS, from + BATCH - 1);
    await pool.query(`
      WITH v AS (SELECT vendor_id, display_name, domain_verified, row_number() OVER (ORDER BY slug) AS n FROM catalog_vendors)
      INSERT INTO listings (id, vendor_id, slug, type, title, description, tags, targets, tools, price_cents, readme_md, status,
        latest_version, latest_release_id, created_at, updated_at, vendor_name, vendor_verified, first_published_at,
        install_count, rating_sum, rating_count, latest_scan_status, latest_signed, settlement_methods,
        service_endpoint, service_protocol, service_transport)
      SELECT gen_random_uuid(), v.vendor_id, 'pkg-' || i, (ARRAY['${TYPES.join("','")}'])[1 + i % ${TYPES.length}],
        initcap(${phrase(3, domain, 'i')}), initcap(${phrase(6, domain, 'i')}) || ' ' || ${phrase(10, filler, 'i')},
        ARRAY[${domain('i')}, ${domain('i')}, ${domain('i')}],
        ARRAY[(ARRAY['${TARGETS.join("','")}'])[1 + i % ${TARGETS.length}], (ARRAY['${TARGETS.join("','")}'])[1 + (i / 7) % ${TARGETS.length}]],
        CASE WHEN i % 5 = 0 THEN ARRAY[${domain('i')} || '_' || ${domain('i')}] ELSE '{}' END,
        CASE WHEN i % 3 = 0 THEN 0 ELSE (i % 50) * 100 END,
        '# ' || ${phrase(3, domain, 'i')} || E'\\n\\n' || ${phrase(60, filler, 'i')} || ' ' || ${phrase(5, domain, 'i')},
        'published', '1.0.0', gen_random_uuid(), now() - (i || ' minutes')::interval, now(), v.display_name, v.domain_verified,
        now() - (i || ' minutes')::interval, floor(random() * random() * 5000)::int, 0, 0,
        CASE WHEN i % 10 = 0 THEN 'flagged' ELSE 'passed' END, i % 4 = 0, ARRAY['wallet'],
        ${live('i', "'https://svc-' || i || '.example.com/mcp'")}, ${live('i', "'mcp'")}, ${live('i', "'http'")}
      FROM generate_series(${from}, ${to}) i JOIN v ON v.n = 1 + i % ${VENDORS}`);
  }
  // Each live service's latest probe: the tools it listed (service_tools, search's tool index, follows by trigger).
  await pool.query(`
    INSERT INTO service_probes (id, listing_id, ok, response_ms, tool_names, checked_at)
    SELECT gen_random_uuid(), id, true, 40, ARRAY['call_' || (substring(slug FROM 5)::int / ${LIVE_EVERY}) % 25, 'call_any'], now()
    FROM listings WHERE service_endpoint IS NOT NULL`);
  // A steady-state table: autovacuum would have set the visibility map by now.
  await pool.query('VACUUM ANALYZE listings');
  await pool.query('ANALYZE catalog_vendors, service_tools');
}

const SORTS = ['popular', 'recent', 'rated', 'price_asc', 'price_desc', 'trusted'];

/**
 * `search-cold`: distinct queries from the seeded vocabulary, as agents send them (issue 16): one to
 * three words; a third with a `type` or `target` filter, a tenth with `tags`, a tenth sorted by one of
 * the non-relevance sorts, a fifth with no `q` (those browse pages 1-20). Seeded, so every run sends the same queries.
 */
export function coldQueries(count = 1_000): string[] {
  let state = 16;
  const random = () => {
    // mulberry32
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)];
  const withText = new Set<string>();
  const browsing = new Set<string>();
  while (withText.size + browsing.size < count) {
    const params = new URLSearchParams();
    const browse = browsing.size < count / 5 && (withText.size >= count - count / 5 || random() < 0.2);
    if (!browse) params.set('q', Array.from({ length: 1 + Math.floor(random() * 3) }, () => pick(WORDS)).join(' '));
    if (random() < 1 / 3) {
      if (random() < 0.5) params.set('type', pick(TYPES));
      else params.set('target', pick(TARGETS));
    }
    if (random() < 0.1) params.set('tags', pick(WORDS));
    if (random() < 0.1) params.set('sort', pick(SORTS));
    // Without words there are few distinct filter sets: browsing also turns pages.
    if (browse) params.set('page', String(1 + Math.floor(random() * 20)));
    (browse ? browsing : withText).add(`/v1/search?${params}`);
  }
  const queries = [...withText, ...browsing];
  for (let i = queries.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [queries[i], queries[j]] = [queries[j], queries[i]];
  }
  return queries;
}

const QUERIES = ['pdf', 'csv', 'deploy', 'agent', 'python', 'slack', 'invoice', 'search', 'weather', 'review'];
const CONNECTIONS = 10;

/**
 * Search through the whole app beside a bare Fastify hello-world, measured here with the same
 * client: once as deployed (repeated searches answered from the result cache while the catalogue
 * is unchanged) and once with the cache off, so every request runs its SQL.
 */
export async function benchSearch(
  databaseUrl: string,
  helloUrl: string,
  seconds: number,
  parts: { cached: boolean; cold: boolean } = { cached: true, cold: true },
) {
  await run(helloUrl, [{ method: 'GET', path: '/' }], 1);
  const bare = await run(helloUrl, [{ method: 'GET', path: '/' }], seconds);
  const figures = (result: autocannon.Result) => ({
    requestsPerSecond: Math.round(result.requests.average),
    latencyMs: { p50: result.latency.p50, p99: result.latency.p99 },
    ratioToHelloWorld: Math.round((result.requests.average / bare.requests.average) * 1000) / 1000,
    non2xx: result.non2xx,
  });
  const measure = async (cacheMs: string) => {
    const server = await startServer(
      loadConfig({
        DATABASE_URL: databaseUrl,
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'silent',
        RATE_LIMIT_MAX: '100000000',
        RUN_PROCESSORS: 'false',
        SEARCH_CACHE_MS: cacheMs,
      }),
    );
    try {
      // A typical query: text plus two filters, over ten different words.
      const typical = QUERIES.map((q) => ({ method: 'GET' as const, path: `/v1/search?q=${q}&type=skill&target=cursor` }));
      // A cursor walk: the pages of one walk, replayed (cursors are valid for an hour).
      const walk: string[] = [];
      let next: string | null = null;
      for (let page = 0; page < 50; page++) {
        const path = `/v1/search?sort=popular&per_page=20${next ? `&cursor=${next}` : ''}`;
        walk.push(path);
        const body = (await (await fetch(`${server.url}${path}`)).json()) as { nextCursor: string | null };
        next = body.nextCursor;
        if (!next) break;
      }
      await run(server.url, typical, 1);
      const search = await run(server.url, typical, seconds);
      const cursor = await run(
        server.url,
        walk.map((path) => ({ method: 'GET' as const, path })),
        seconds,
      );
      const figuresOf = {
        typicalQuery: { example: typical[0].path, ...figures(search) },
        cursorWalk: { pages: walk.length, ...figures(cursor) },
      };
      if (cacheMs !== '0' || !parts.cold) return figuresOf;
      // Every request takes the next of the distinct queries, so each is sent once per round of 1,000.
      const queries = coldQueries();
      let turn = 0;
      const mix: autocannon.Request[] = [
        { method: 'GET', setupRequest: (request) => ({ ...request, path: queries[turn++ % queries.length] }) },
      ];
      await run(server.url, mix, 1);
      turn = 0;
      const cold = await run(server.url, mix, seconds);
      const filters = await everyFilter(server.url);
      return {
        ...figuresOf,
        everyFilter: filters,
        searchCold: {
          distinctQueries: queries.length,
          mix: {
            withoutQ: queries.filter((q) => !q.includes('q=')).length,
            withTypeOrTarget: queries.filter((q) => /type=|target=/.test(q)).length,
            withTags: queries.filter((q) => q.includes('tags=')).length,
            sorted: queries.filter((q) => q.includes('sort=')).length,
          },
          rounds: Math.round((cold.requests.total / queries.length) * 10) / 10,
          examples: queries.slice(0, 4),
          ...figures(cold),
          target: 'at least 400 req/s, p50 <= 10 ms, p99 <= 40 ms (read as ratios on a shared machine)',
        },
      };
    } finally {
      await server.close();
    }
  };
  return {
    listings: LISTINGS,
    connections: CONNECTIONS,
    bareFastifyRequestsPerSecond: Math.round(bare.requests.average),
    ...(parts.cached ? { withResultCache: await measure('250') } : {}),
    withoutResultCache: await measure('0'),
    target: 'p99 under 25 ms and at least 0.15 of the hello-world rate; without the cache, the cursor walk p99 <= 25 ms',
  };
}

/** Each filter alone, on the first page and a deep one, by two orders. */
const FILTERS = [
  '',
  'type=mcp',
  'target=codex',
  'tags=pdf',
  'free=true',
  'tool=call_7',
  'tool=pdf_csv',
  'live=true',
  'protocol=mcp',
  'settlement=wallet',
  'verified=true',
  'q=pdf',
];

/**
 * Every filter of the spec, one request at a time (the best of three, so the figure is the statement's cost and
 * not the machine's noise): none may cost a scan of the catalogue, which at 100,000 listings is 40 ms or more.
 */
async function everyFilter(url: string) {
  const timings: { query: string; ms: number }[] = [];
  for (const filter of FILTERS)
    for (const sort of ['', 'sort=price_asc'])
      for (const page of ['', 'page=25']) {
        const query = `/v1/search?${[filter, sort, page].filter(Boolean).join('&')}`;
        let best = Infinity;
        for (let i = 0; i < 4; i++) {
          const started = performance.now();
          await (await fetch(`${url}${query}`)).arrayBuffer();
          if (i > 0) best = Math.min(best, performance.now() - started);
        }
        timings.push({ query, ms: Math.round(best * 10) / 10 });
      }
  timings.sort((a, b) => b.ms - a.ms);
  return {
    queries: timings.length,
    medianMs: timings[Math.floor(timings.length / 2)].ms,
    slowest: timings.slice(0, 5),
    target: 'no filter scans the catalogue: each well under the 40 ms a scan of 100,000 listings costs',
  };
}

function run(url: string, requests: autocannon.Request[], seconds: number): Promise<autocannon.Result> {
  return autocannon({ url, connections: CONNECTIONS, duration: seconds, requests });
}
