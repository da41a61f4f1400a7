import { DataSource } from 'typeorm';
import { startTestApp, TestApp } from '../support/app';
import { CatalogSeed, SeedVendor } from '../support/catalog-seed';
import { json } from '../support/http';

/**
 * Search against a straightforward reference: the same filters written plainly, the text matched
 * against a document built from the listing's own columns, no indexes in mind. Every filter and sort
 * must return exactly the reference's listings in the reference's order; relevance (which ranks, so
 * has no plain reference) must return the reference's set, whole-query head matches first.
 */
describe('GET /v1/search against a reference query', () => {
  let app: TestApp;
  let db: DataSource;
  const WORDS = ['pdf', 'invoice', 'deploy', 'docker', 'agent', 'prompt', 'slack', 'weather', 'csv', 'python', 'review', 'audit'];
  const TYPES = ['skill', 'rule', 'mcp', 'template'];
  const TARGETS = ['cursor', 'claude-code', 'codex', 'windsurf'];

  beforeAll(async () => {
    app = await startTestApp();
    db = app.server.app.get(DataSource);
    const seed = await CatalogSeed.for(app);
    const vendors: SeedVendor[] = [
      await seed.vendor('north', { displayName: 'North Deploy Works', verified: true }),
      await seed.vendor('south', { displayName: 'South Labs' }),
    ];
    // A deterministic spread: words land in titles, tags, descriptions or only the README.
    const word = (i: number, k: number) => WORDS[(i * 7 + k * 5) % WORDS.length];
    for (let i = 0; i < 30; i++) {
      const { listingId } = await seed.listing({
        vendor: vendors[i % 2],
        slug: `ref-${i}`,
        title: `${word(i, 0)} ${i % 3 === 0 ? word(i, 1) : 'helper'}`,
        description: `Does ${word(i, 2)} work quickly.`,
        type: TYPES[i % TYPES.length],
        tags: [word(i, 3), i % 4 === 0 ? 'data' : 'misc'],
        targets: [TARGETS[i % TARGETS.length], TARGETS[(i + 1) % TARGETS.length]],
        tools: i % 5 === 0 ? [`tool_${word(i, 4)}`] : [],
        priceCents: i % 3 === 0 ? 0 : (i % 7) * 100,
        readmeMd: `# Notes\n\nMentions ${word(i, 5)} and ${word(i, 6)} in passing.`,
        at: new Date(Date.UTC(2026, 10, 1, 12, i)),
        ...(i % 6 === 0
          ? {
              changes: {
                serviceEndpoint: `https://svc-${i}.example/mcp`,
                serviceProtocol: 'mcp' as const,
                settlementMethods: ['wallet' as const],
              },
            }
          : {}),
      });
      if (i % 4 !== 1) await seed.installs(listingId, (i * 3) % 7);
    }
  });
  afterAll(async () => app?.close());

  const ORDER_BY: Record<string, string> = {
    popular: 'install_count DESC, id DESC',
    recent: 'first_published_at DESC, id DESC',
    rated: 'rating_bayes DESC, id DESC',
    price_asc: 'price_cents ASC, id ASC',
    price_desc: 'price_cents DESC, id DESC',
    trusted: 'trust_score DESC, id DESC',
  };

  /** The plain reference: ids in order, or for relevance the set (sorted) and which of them match in the head. */
  const reference = async (params: Record<string, string>) => {
    const values: unknown[] = [];
    const add = (v: unknown) => `$${values.push(v)}`;
    const where = ['searchable'];
    if (params.type) where.push(`type = ${add(params.type)}`);
    if (params.target) where.push(`${add(params.target)} = ANY(targets)`);
    if (params.tool) where.push(`${add(params.tool)} = ANY(tools)`);
    if (params.tags) where.push(`tags @> ${add(params.tags.split(','))}::text[]`);
    if (params.free === 'true') where.push('price_cents = 0');
    if (params.verified === 'true') where.push('vendor_verified');
    if (params.live === 'true') where.push('service_endpoint IS NOT NULL');
    if (params.protocol) where.push(`service_protocol = ${add(params.protocol)}`);
    if (params.settlement) where.push(`${add(params.settlement)} = ANY(settlement_methods)`);
    const query = params.q
      ? `regexp_replace(websearch_to_tsquery('english', ${add(params.q)})::text, '''([^'']+)''', '''\\1'':*', 'g')::tsquery`
      : null;
    const document = `to_tsvector('english', concat_ws(' ', title, slug, array_to_string(tags, ' '), vendor_name, description, readme_md))`;
    const head = `to_tsvector('english', concat_ws(' ', title, slug, array_to_string(tags, ' '), vendor_name, description))`;
    if (query) where.push(`(numnode(${query}) = 0 OR ${document} @@ ${query})`);
    const sort = params.sort ?? (query ? 'relevance' : 'popular');
    const rows: { id: string; head: boolean }[] = await db.query(
      `SELECT id, ${query ? `${head} @@ ${query}` : 'false'} AS head FROM listings WHERE ${where.join(' AND ')}
       ORDER BY ${sort === 'relevance' ? 'id' : ORDER_BY[sort]}`,
      values,
    );
    return { sort, ids: rows.map((r) => r.id), headIds: new Set(rows.filter((r) => r.head).map((r) => r.id)) };
  };

  const search = async (params: Record<string, string>) => {
    const response = await fetch(`${app.url}/v1/search?${new URLSearchParams({ per_page: '50', ...params })}`);
    expect({ params, status: response.status }).toEqual({ params, status: 200 });
    return json(response);
  };

  const SAMPLE: Record<string, string>[] = [
    {},
    { type: 'skill' },
    { target: 'cursor' },
    { type: 'mcp', target: 'codex' },
    { tags: 'data' },
    { tags: 'data,docker' },
    { free: 'true' },
    { verified: 'true', sort: 'recent' },
    { live: 'true' },
    { protocol: 'mcp', settlement: 'wallet' },
    { tool: 'tool_csv' },
    ...Object.keys(ORDER_BY).map((sort) => ({ sort })),
    { sort: 'price_asc', free: 'false' },
    { q: 'pdf' },
    { q: 'invoice', type: 'rule' },
    { q: 'deploy' }, // the vendor name matches for half the catalogue
    { q: 'pyth' }, // a prefix
    { q: 'agent prompt' },
    { q: 'slack or weather', sort: 'popular' },
    { q: 'csv -audit' },
    { q: '"in passing"' },
    { q: 'review', sort: 'price_desc', target: 'windsurf' },
    { q: 'docker', sort: 'trusted', tags: 'misc' },
    { q: 'audit', sort: 'rated' },
    { q: 'weather', sort: 'recent', free: 'true' },
    { q: 'nothing-like-this' },
    { q: 'the' }, // stop words only: no text filter
  ];

  it.each(SAMPLE.map((params) => [JSON.stringify(params), params]))(
    'returns what the reference returns for %s',
    async (_name, params) => {
      const expected = await reference(params as Record<string, string>);
      const body = await search(params as Record<string, string>);
      const ids: string[] = body.results.map((r: { id: string }) => r.id);
      if ((params as Record<string, string>).q !== 'nothing-like-this') expect(expected.ids.length).toBeGreaterThan(0);
      expect(body.total).toBe(expected.ids.length);
      if (expected.sort !== 'relevance') {
        expect(ids).toEqual(expected.ids);
        return;
      }
      expect([...ids].sort()).toEqual(expected.ids);
      // Tiered: every listing whose head document matches the whole query comes before every README-only match.
      const tiers = ids.map((id) => (expected.headIds.has(id) ? 1 : 0));
      expect(tiers).toEqual([...tiers].sort((a, b) => b - a));
    },
  );

  it('pages through the same order the reference gives', async () => {
    const samples: Record<string, string>[] = [
      { sort: 'popular' },
      { q: 'pdf or csv or deploy', sort: 'price_asc' },
      { target: 'cursor', sort: 'recent' },
    ];
    for (const params of samples) {
      const expected = await reference(params);
      const second = await search({ ...params, per_page: '4', page: '2' });
      expect(second.results.map((r: { id: string }) => r.id)).toEqual(expected.ids.slice(4, 8));
      expect(second.total).toBe(expected.ids.length);
    }
  });

  it('walks a relevance search with the cursor to the same set, each listing once', async () => {
    const params = { q: 'pdf or deploy or agent' };
    const expected = await reference(params);
    const seen: string[] = [];
    let body = await search({ ...params, per_page: '3' });
    seen.push(...body.results.map((r: { id: string }) => r.id));
    while (body.nextCursor) {
      body = await search({ ...params, per_page: '3', cursor: body.nextCursor });
      seen.push(...body.results.map((r: { id: string }) => r.id));
    }
    expect(seen.length).toBe(new Set(seen).size);
    expect([...seen].sort()).toEqual(expected.ids);
  });
});
