import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { Clock } from '../../../../platform/clock/clock';
import { PreparedStatements } from '../../../../platform/database/prepared-statements';
import { DomainError } from '../../../../platform/errors/domain-error';
import { LISTING_SUMMARY_COLUMNS, toSearchResult } from '../../read-models/listing-rows';
import { SearchCache } from './search-cache';
import { CursorCodec } from '../../../../platform/http/cursor-codec';
import { decodeSearchCursor, encodeSearchCursor, searchFingerprint, SortValueKind } from './search-cursor';
import { SearchCriteria, SearchListingsQuery, SearchPage, SearchSort } from './search-listings.query';

type Order = 'relevance' | SearchSort;

/** Each order: the ordering column (also kept in the history for snapshots) and its direction. Ties break on id. */
const ORDERS: Record<Order, { column: string; type: string; direction: 'ASC' | 'DESC'; value: SortValueKind }> = {
  relevance: { column: 'rank', type: 'float8', direction: 'DESC', value: 'number' },
  popular: { column: 'install_count', type: 'bigint', direction: 'DESC', value: 'integer' },
  recent: { column: 'first_published_at', type: 'timestamptz', direction: 'DESC', value: 'timestamp' },
  rated: { column: 'rating_bayes', type: 'float8', direction: 'DESC', value: 'number' },
  price_asc: { column: 'price_cents', type: 'bigint', direction: 'ASC', value: 'integer' },
  price_desc: { column: 'price_cents', type: 'bigint', direction: 'DESC', value: 'integer' },
  trusted: { column: 'trust_score', type: 'float8', direction: 'DESC', value: 'number' },
};

/** Deep pages cost a scan each; past this, walk with the cursor. */
const MAX_OFFSET = 10_000;

/** `total` is exact up to this many matches and the planner's estimate past it (an exact count costs a scan of all matches). */
export const TOTAL_EXACT_UP_TO = 1_000;

/**
 * Relevance pages rank the first this-many matches (in index order), so a broad
 * word costs the same as a narrow one; past them a relevance page is empty.
 * A cursor walk ranks every match.
 */
export const RANKED_CANDIDATES = 1_000;

/** A sorted page of words or tags is sorted from their matches when the planner expects at most this many (see sortMatchesFirst). */
export const SORTED_MATCHES_UP_TO = 5_000;

const SNAPSHOT_COLUMN = '(SELECT coalesce(max(search_seq), 0) FROM listings) AS snapshot';

/**
 * Whether sorting all `matches` (each read once through the text or tag index) beats walking the order's
 * index, which tests about `catalogue / matches` rows for each of the `reach` rows it returns (offset and
 * page). Testing a row for words detoasts its search document, about four times the cost of reading it.
 */
export function sortMatchesFirst(matches: number, reach: number, catalogue: number, words: boolean): boolean {
  const perRowOfWalk = words ? 4 : 1;
  // A page reaching past the sorted bound could not tell "no more matches" from "more than the planner thought".
  if (reach > SORTED_MATCHES_UP_TO) return false;
  return matches <= SORTED_MATCHES_UP_TO && matches * matches <= perRowOfWalk * reach * catalogue;
}

/**
 * Full-text and faceted search over the searchable listings (public,
 * published, with a published release).
 *
 * A page request reads current values. A cursor walk reads every listing as it
 * was when the walk began: listings whose ordering values changed since then
 * (new installs, new ratings, a new price) are read from
 * `listing_search_history`, and listings that appeared since are left out, so
 * a walk returns each listing once, without gaps, while the catalog changes.
 */
@QueryHandler(SearchListingsQuery)
export class SearchListingsHandler implements IQueryHandler<SearchListingsQuery, SearchPage> {
  /** The catalogue's size as the planner sees it (see catalogueSize). */
  private size: { rows: number; at: number } | null = null;

  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly cache: SearchCache,
    private readonly cursors: CursorCodec,
    /** The bounded page and the prefix query: the same plan whatever the words, so planned once per connection. */
    private readonly prepared: PreparedStatements,
  ) {}

  async execute({ criteria }: SearchListingsQuery): Promise<SearchPage> {
    const key = JSON.stringify(Object.entries(criteria).sort(([a], [b]) => a.localeCompare(b)));
    return this.cache.page(key, () => this.search(criteria));
  }

  private async search(params: SearchCriteria): Promise<SearchPage> {
    const perPage = params.per_page ?? 20;
    const text = textQuery(params.q);
    const order: Order = params.sort ?? (text ? 'relevance' : 'popular');
    const tags = parseTags(params.tags);
    const fingerprint = searchFingerprint([
      order,
      text,
      params.type,
      params.target,
      params.free,
      params.tool,
      tags,
      params.live,
      params.protocol,
      params.settlement,
      params.verified,
    ]);
    const now = this.clock.now().getTime();
    const cursor =
      params.cursor === undefined ? null : decodeSearchCursor(this.cursors, params.cursor, fingerprint, ORDERS[order].value, now);

    const sql = new SqlParams();
    // A query of stop words only ("the") has no lexemes, and filters nothing rather than everything.
    const lexemes = text ? await this.prefixQuery(text) : '';
    const tsquery = lexemes ? `${sql.add(lexemes)}::tsquery` : null;
    const filters = searchFilters(params, tags, sql);
    if (tsquery) filters.push(`l.search_vector @@ ${tsquery}`);
    // Tiered relevance over the small head document: listings whose title, tags, vendor or description match
    // the whole query come first, README-only matches after; within a tier, ts_rank over the head.
    const rank = tsquery ? `((l.search_head @@ ${tsquery})::int + ts_rank(l.search_head, ${tsquery}, 32))::float8` : '0::float8';
    const { column, type, direction } = ORDERS[order];
    const compare = direction === 'DESC' ? '<' : '>';

    if (!cursor) {
      const page = params.page ?? 1;
      if ((page - 1) * perPage > MAX_OFFSET)
        throw new DomainError('invalid', `page reaches past ${MAX_OFFSET} results: follow nextCursor instead`);
      const where = ['l.searchable', ...filters, params.free ? 'l.price_cents = 0' : null].filter(Boolean).join(' AND ');
      const offset = (page - 1) * perPage;
      if (order === 'relevance') {
        const limit = Math.max(0, Math.min(perPage + 1, RANKED_CANDIDATES - offset));
        const bounded = await this.boundedPage(where, rank, 'DESC', RANKED_CANDIDATES, limit, offset, sql.values);
        const matched = bounded.matched ?? (await this.boundedCount(where, sql.values));
        const total = await this.totalOf(matched, where, sql.values);
        return this.toPage(bounded.rows, perPage, { total, page }, fingerprint, now);
      }
      // Words and tags match a few percent of the catalogue: a deep page of a rare one is cheaper to sort from its
      // matches (read through the text or tag index) than to find by walking the order's index and testing each row.
      const planned = tsquery || tags.length > 0 ? await this.plannedCount(where, sql.values) : undefined;
      let known: number | undefined;
      if (
        planned !== undefined &&
        sortMatchesFirst(planned, offset + perPage + 1, await this.catalogueSize(), Boolean(tsquery))
      ) {
        const bounded = await this.boundedPage(
          where,
          `l.${column}`,
          direction,
          SORTED_MATCHES_UP_TO,
          perPage + 1,
          offset,
          sql.values,
        );
        if (bounded.matched === null) {
          // A page past the last match (the page reaches no further than the bound, so every match was read).
          const total = await this.totalOf(await this.boundedCount(where, sql.values), where, sql.values, planned);
          return this.toPage([], perPage, { total, page }, fingerprint, now);
        }
        // All the matches were sorted, so the page and its total are exact.
        if (bounded.matched <= SORTED_MATCHES_UP_TO)
          return this.toPage(bounded.rows, perPage, { total: bounded.matched, page }, fingerprint, now);
        // More matches than the planner thought: walk after all, knowing there are more than the bound.
        known = bounded.matched;
      }
      const pageSql = `
        SELECT ${LISTING_SUMMARY_COLUMNS}, l.${column} AS sort_value, ${SNAPSHOT_COLUMN}
        FROM listings l JOIN catalog_vendors v ON v.vendor_id = l.vendor_id
        WHERE ${where} ORDER BY l.${column} ${direction}, l.id ${direction} LIMIT ${perPage + 1} OFFSET ${offset}`;
      const [rows, counted] = await Promise.all([
        this.dataSource.query(pageSql, sql.values),
        known ?? this.boundedCount(where, sql.values),
      ]);
      const total = await this.totalOf(counted, where, sql.values, planned);
      return this.toPage(rows, perPage, { total, page }, fingerprint, now);
    }

    // A walk: rows unchanged since the snapshot read their current values (through the order's index),
    // rows changed since read the values they had then.
    const snapshot = sql.add(cursor.snapshot);
    const after = (value: string) =>
      `(${value}, l.id) ${compare} (${sql.add(cursor.value)}::${type}, ${sql.add(cursor.id)}::uuid)`;
    const currentValue = order === 'relevance' ? rank : `l.${column}`;
    const pastValue = order === 'relevance' ? rank : `h.${column}`;
    const walkSql = `
      WITH current_rows AS (
        SELECT l.id, ${currentValue} AS sort_value FROM listings l
        WHERE l.searchable AND l.search_seq <= ${snapshot} ${filters.map((f) => `AND ${f}`).join(' ')}
          ${params.free ? 'AND l.price_cents = 0' : ''} AND ${after(currentValue)}
        ORDER BY ${currentValue} ${direction}, l.id ${direction} LIMIT ${perPage + 1}
      ), changed_rows AS (
        SELECT l.id, ${pastValue} AS sort_value FROM listings l
        JOIN LATERAL (
          SELECT * FROM listing_search_history h WHERE h.listing_id = l.id AND h.valid_until_seq > ${snapshot}
          ORDER BY h.valid_until_seq LIMIT 1
        ) h ON true
        WHERE l.search_seq > ${snapshot} AND l.created_seq <= ${snapshot} AND h.searchable
          ${filters.map((f) => `AND ${f}`).join(' ')} ${params.free ? 'AND h.price_cents = 0' : ''} AND ${after(pastValue)}
      ), walk AS (
        SELECT * FROM current_rows UNION ALL SELECT * FROM changed_rows
        ORDER BY sort_value ${direction}, id ${direction} LIMIT ${perPage + 1}
      )
      SELECT ${LISTING_SUMMARY_COLUMNS}, w.sort_value, ${snapshot}::bigint AS snapshot
      FROM walk w JOIN listings l ON l.id = w.id JOIN catalog_vendors v ON v.vendor_id = l.vendor_id
      ORDER BY w.sort_value ${direction}, w.id ${direction}`;
    const rows = await this.dataSource.query(walkSql, sql.values);
    return this.toPage(rows, perPage, null, fingerprint, now);
  }

  /**
   * The user's websearch-syntax query as a tsquery in which every word matches as a prefix ("pdf-to"
   * finds "pdf-tools"), each prefix spelled out as the lexemes it begins (see the search_lexemes migration).
   * Asked for first, so the page's query is planned with the actual lexemes.
   */
  private async prefixQuery(text: string): Promise<string> {
    const [{ query }] = await this.prepared.query<{ query: string }>('SELECT search_prefix_query($1)::text AS query', [text]);
    return query;
  }

  /**
   * A page of the first `bound` + 1 matches ordered by `sortValue` (then id), and how many matches there were
   * when the page has rows (null when it is empty). The matches are read lazily: a materialized CTE is planned
   * for all its rows, so through the filters' indexes, and read only as far as the LIMIT above it asks.
   */
  private async boundedPage(
    where: string,
    sortValue: string,
    direction: 'ASC' | 'DESC',
    bound: number,
    limit: number,
    offset: number,
    values: unknown[],
  ): Promise<{ rows: Record<string, unknown>[]; matched: number | null }> {
    // The page's bounds are parameters too, so the statement's text (and its prepared plan) is one per filter set.
    const rows = await this.prepared.query(
      `WITH matches AS MATERIALIZED (SELECT l.id, ${sortValue} AS sort_value FROM listings l WHERE ${where}),
       candidates AS MATERIALIZED (SELECT * FROM matches LIMIT ${bound + 1}),
       chosen AS (
         SELECT * FROM candidates ORDER BY sort_value ${direction}, id ${direction}
         LIMIT $${values.length + 1} OFFSET $${values.length + 2}
       )
       SELECT ${LISTING_SUMMARY_COLUMNS}, c.sort_value, ${SNAPSHOT_COLUMN}, (SELECT count(*) FROM candidates)::int AS matched
       FROM chosen c JOIN listings l ON l.id = c.id JOIN catalog_vendors v ON v.vendor_id = l.vendor_id
       ORDER BY c.sort_value ${direction}, c.id ${direction}`,
      [...values, limit, offset],
    );
    return { rows, matched: rows.length > 0 ? Number(rows[0].matched) : null };
  }

  /** The planner's count of searchable listings, refreshed at most once a minute: only ever weighs one plan against another. */
  private async catalogueSize(): Promise<number> {
    const now = this.clock.now().getTime();
    if (!this.size || now - this.size.at > 60_000) {
      const [{ rows }] = await this.dataSource.query(
        `SELECT greatest(reltuples, 0)::float8 AS rows FROM pg_class WHERE oid = 'listings'::regclass`,
      );
      this.size = { rows: Number(rows), at: now };
    }
    return this.size.rows;
  }

  /** Counts the matches up to TOTAL_EXACT_UP_TO + 1 (lazily read, as above, so through the indexes). */
  private async boundedCount(where: string, values: unknown[]): Promise<number> {
    const [{ total }] = await this.dataSource.query(
      `WITH matches AS MATERIALIZED (SELECT 1 FROM listings l WHERE ${where})
       SELECT count(*)::int AS total FROM (SELECT 1 FROM matches LIMIT ${TOTAL_EXACT_UP_TO + 1}) m`,
      values,
    );
    return total;
  }

  /** The planner's estimate of the matches (EXPLAIN, no execution). */
  private async plannedCount(where: string, values: unknown[]): Promise<number> {
    const [row] = await this.dataSource.query(`EXPLAIN (FORMAT JSON) SELECT 1 FROM listings l WHERE ${where}`, values);
    const estimate = Math.round(Number(row['QUERY PLAN'][0].Plan['Plan Rows']));
    return Number.isFinite(estimate) ? estimate : 0;
  }

  /**
   * A page's `total` from the matches counted (at least): exact up to TOTAL_EXACT_UP_TO; past it the planner's
   * estimate (asked for here unless already `planned`), never below the bound nor below what was counted.
   */
  private async totalOf(counted: number, where: string, values: unknown[], planned?: number): Promise<number> {
    if (counted <= TOTAL_EXACT_UP_TO) return counted;
    return Math.max(TOTAL_EXACT_UP_TO + 1, counted, planned ?? (await this.plannedCount(where, values)));
  }

  private toPage(
    rows: Record<string, unknown>[],
    perPage: number,
    paging: { total: number; page: number } | null,
    fingerprint: string,
    now: number,
  ): SearchPage {
    const more = rows.length > perPage;
    const shown = rows.slice(0, perPage);
    const last = shown[shown.length - 1];
    const nextCursor =
      more && last
        ? encodeSearchCursor(
            this.cursors,
            {
              snapshot: Number(last.snapshot),
              value: last.sort_value instanceof Date ? last.sort_value.toISOString() : Number(last.sort_value),
              id: last.id as string,
            },
            fingerprint,
            now,
          )
        : null;
    return {
      results: shown.map(toSearchResult),
      total: paging ? paging.total : null,
      page: paging ? paging.page : null,
      perPage,
      nextCursor,
    };
  }
}

/**
 * The conditions on a listing row for a search's filters, but its words and `free`. The sparse ones (tags, tool,
 * live, protocol) have indexes of their own (test/int/catalog/search-filters.int.spec.ts); the dense ones are
 * tested on the rows an order's index walks past.
 */
export function searchFilters(params: SearchCriteria, tags: string[], sql: SqlParams): string[] {
  const filters: string[] = [];
  if (params.type) filters.push(`l.type = ${sql.add(params.type)}`);
  if (params.target) filters.push(`l.targets @> ARRAY[${sql.add(params.target)}]::text[]`);
  if (params.tool) {
    // A tool the package declares, or one its live service lists (at its latest successful probe).
    const tool = `ARRAY[${sql.add(params.tool)}]::text[]`;
    filters.push(`(l.tools @> ${tool} OR l.service_endpoint IS NOT NULL AND l.id = ANY (ARRAY(
      SELECT t.listing_id FROM service_tools t WHERE t.tool_names @> ${tool})))`);
  }
  if (tags.length > 0) filters.push(`l.tags @> ${sql.add(tags)}::text[]`);
  if (params.live) filters.push('l.service_endpoint IS NOT NULL');
  if (params.protocol) filters.push(`l.service_protocol = ${sql.add(params.protocol)}`);
  if (params.settlement) filters.push(`l.settlement_methods @> ARRAY[${sql.add(params.settlement)}]::text[]`);
  if (params.verified) filters.push('l.vendor_verified');
  return filters;
}

/** Quotes and backslashes are dropped: the prefix rewrite works on the tsquery's text form, where they would need escaping. */
function textQuery(q: string | undefined): string | null {
  const cleaned = q?.replace(/['\\]/g, ' ').trim();
  return cleaned ? cleaned : null;
}

export function parseTags(raw: string | undefined): string[] {
  if (raw === undefined) return [];
  const tags = [
    ...new Set(
      raw
        .split(',')
        .map((t) => t.trim().toLowerCase())
        .filter(Boolean),
    ),
  ];
  if (tags.length > 10) throw new DomainError('invalid', 'tags may name at most 10 tags');
  return tags;
}

export class SqlParams {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}
