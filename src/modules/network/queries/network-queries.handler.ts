import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../../config/app-config';
import { InjectConfig } from '../../../config/config.module';
import { Clock } from '../../../platform/clock/clock';
import { DomainError } from '../../../platform/errors/domain-error';
import { isUuid } from '../../../platform/ids';
import { serviceStatusOf } from '../domain/probe';
import {
  GetSessionQuery,
  InboxItem,
  InboxQuery,
  ListMessagesQuery,
  ListServicesQuery,
  MessageView,
  ServiceHealth,
  ServiceHealthQuery,
  ServiceItem,
  ServicePage,
  SessionDetail,
} from './network.queries';

const iso = (value: Date | string): string => new Date(value).toISOString();

const sessionOf = (row: Record<string, unknown>) => ({
  id: row.id as string,
  status: row.status as string,
  protocol: row.protocol as string | null,
  transport: row.transport as string | null,
  createdAt: iso(row.created_at as Date),
});

async function participantRow(dataSource: DataSource, userId: string, sessionId: string): Promise<Record<string, unknown>> {
  const [row] = isUuid(sessionId)
    ? await dataSource.query('SELECT * FROM network_sessions WHERE id = $1 AND (buyer_id = $2 OR vendor_id = $2)', [
        sessionId,
        userId,
      ])
    : [];
  if (!row) throw new DomainError('not_found', 'Session not found');
  return row;
}

@QueryHandler(GetSessionQuery)
export class GetSessionHandler implements IQueryHandler<GetSessionQuery, SessionDetail> {
  constructor(private readonly dataSource: DataSource) {}

  async execute({ userId, sessionId }: GetSessionQuery): Promise<SessionDetail> {
    const row = await participantRow(this.dataSource, userId, sessionId);
    return {
      session: sessionOf(row),
      role: row.buyer_id === userId ? 'buyer' : 'vendor',
      listingId: row.listing_id as string,
      listingSlug: row.listing_slug as string,
      vendorSlug: row.vendor_slug as string,
    };
  }
}

@QueryHandler(ListMessagesQuery)
export class ListMessagesHandler implements IQueryHandler<ListMessagesQuery, { messages: MessageView[] }> {
  constructor(private readonly dataSource: DataSource) {}

  async execute({ userId, sessionId, limit, after }: ListMessagesQuery): Promise<{ messages: MessageView[] }> {
    await participantRow(this.dataSource, userId, sessionId);
    let afterSeq = -1;
    if (after !== undefined) {
      const [row] = isUuid(after)
        ? await this.dataSource.query('SELECT seq FROM network_messages WHERE session_id = $1 AND id = $2', [sessionId, after])
        : [];
      if (!row) throw new DomainError('invalid', 'after must be the id of a message of this session');
      afterSeq = Number(row.seq);
    }
    const rows = await this.dataSource.query(
      'SELECT * FROM network_messages WHERE session_id = $1 AND seq > $2 ORDER BY seq LIMIT $3',
      [sessionId, afterSeq, limit],
    );
    return {
      messages: rows.map((r: Record<string, unknown>) => ({
        id: r.id,
        direction: r.direction,
        messageType: r.message_type,
        correlationId: r.correlation_id,
        deliveryStatus: r.delivery_status,
        createdAt: iso(r.created_at as Date),
        payload: r.payload,
      })),
    };
  }
}

@QueryHandler(InboxQuery)
export class InboxHandler implements IQueryHandler<InboxQuery, { sessions: InboxItem[] }> {
  constructor(private readonly dataSource: DataSource) {}

  async execute({ vendorId, limit }: InboxQuery): Promise<{ sessions: InboxItem[] }> {
    const rows = await this.dataSource.query(
      `SELECT * FROM network_sessions WHERE vendor_id = $1 AND status = 'open' ORDER BY created_at DESC, id DESC LIMIT $2`,
      [vendorId, limit],
    );
    return {
      sessions: rows.map((r: Record<string, unknown>) => ({
        session: sessionOf(r),
        listingSlug: r.listing_slug as string,
        listingId: r.listing_id as string,
      })),
    };
  }
}

/** The last three probes and the last 24 hours' uptime of each listing, for the cards and the health view. */
const PROBE_FACTS = `
  LEFT JOIN LATERAL (
    SELECT coalesce(array_agg(p.ok ORDER BY p.checked_at DESC), '{}') AS oks,
           coalesce(array_agg(p.response_ms ORDER BY p.checked_at DESC), '{}') AS response_ms
    FROM (SELECT ok, response_ms, checked_at FROM service_probes WHERE listing_id = l.id ORDER BY checked_at DESC LIMIT 3) p
  ) recent ON true
  LEFT JOIN LATERAL (
    SELECT count(*) FILTER (WHERE ok) AS up, count(*) AS probes FROM service_probes
    WHERE listing_id = l.id AND checked_at > $1::timestamptz - interval '24 hours'
  ) day ON true
  LEFT JOIN LATERAL (
    SELECT tool_names, ok, response_ms, error, checked_at FROM service_probes
    WHERE listing_id = l.id ORDER BY checked_at DESC LIMIT 1
  ) latest ON true
  LEFT JOIN service_tools tools ON tools.listing_id = l.id`;

const uptimeOf = (row: Record<string, unknown>): string =>
  Number(row.probes) > 0 ? ((100 * Number(row.up)) / Number(row.probes)).toFixed(2) : '100.00';

@QueryHandler(ListServicesQuery)
export class ListServicesHandler implements IQueryHandler<ListServicesQuery, ServicePage> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  async execute({ filters }: ListServicesQuery): Promise<ServicePage> {
    const values: unknown[] = [this.clock.now().toISOString()];
    const add = (value: unknown) => `$${values.push(value)}`;
    const where = [
      'l.searchable',
      'l.service_endpoint IS NOT NULL',
      filters.tool !== undefined && `coalesce(tools.tool_names, '{}') @> ARRAY[${add(filters.tool)}]::text[]`,
      filters.protocol !== undefined && `l.service_protocol = ${add(filters.protocol)}`,
      filters.settlement !== undefined && `l.settlement_methods @> ARRAY[${add(filters.settlement)}]::text[]`,
      filters.maxPerCallCents !== undefined &&
        `(CASE WHEN l.pricing_model = 'metered' THEN coalesce(l.per_call_cents, 0) ELSE 0 END) <= ${add(filters.maxPerCallCents)}`,
      filters.verified && 'l.vendor_verified',
    ].filter((f): f is string => typeof f === 'string');
    const rows: Record<string, unknown>[] = await this.dataSource.query(
      `SELECT l.id, l.slug, l.title, v.slug AS vendor_slug, l.service_endpoint, l.service_protocol, l.service_transport,
              l.settlement_methods, l.pricing_model, l.per_call_cents, l.trust_score, l.updated_at,
              coalesce(s.total_calls, 0) AS total_calls, coalesce(s.successes, 0) AS successes,
              coalesce(s.total_duration_ms, 0) AS total_duration_ms,
              recent.oks, recent.response_ms, day.up, day.probes, coalesce(tools.tool_names, '{}') AS tool_names
       FROM listings l JOIN catalog_vendors v ON v.vendor_id = l.vendor_id
       LEFT JOIN service_stats s ON s.listing_id = l.id
       ${PROBE_FACTS}
       WHERE ${where.join(' AND ')}
       ORDER BY ${filters.sort === 'trusted' ? 'l.trust_score DESC' : 'l.updated_at DESC'}, l.id DESC`,
      values,
    );
    // Status is derived from the probes, so its filter applies after; services are few next to listings.
    const items = rows
      .map((row) => this.itemOf(row))
      .filter((item) => filters.status === undefined || item.status === filters.status);
    const start = (filters.page - 1) * filters.perPage;
    return {
      services: items.slice(start, start + filters.perPage),
      total: items.length,
      page: filters.page,
      perPage: filters.perPage,
    };
  }

  private itemOf(row: Record<string, unknown>): ServiceItem {
    const oks = row.oks as boolean[];
    const responseMs = row.response_ms as number[];
    const total = Number(row.total_calls);
    return {
      id: row.id as string,
      slug: row.slug as string,
      title: row.title as string,
      vendorSlug: row.vendor_slug as string,
      protocol: row.service_protocol as string | null,
      transport: row.service_transport as string | null,
      endpoint: row.service_endpoint as string,
      toolNames: row.tool_names as string[],
      settlementMethods: row.settlement_methods as string[],
      perCallCents: row.per_call_cents === null ? null : Number(row.per_call_cents),
      status: serviceStatusOf(
        oks.map((ok, i) => ({ ok, responseMs: responseMs[i] })),
        this.config.network.serviceDegradedMs,
      ),
      totalCalls: total,
      successRate: total > 0 ? (Number(row.successes) / total).toFixed(4) : '0.0000',
      avgResponseMs: total > 0 ? Math.round(Number(row.total_duration_ms) / total) : 0,
      uptimePct: uptimeOf(row),
    };
  }
}

@QueryHandler(ServiceHealthQuery)
export class ServiceHealthHandler implements IQueryHandler<ServiceHealthQuery, { listings: ServiceHealth[] }> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  async execute({ vendorId }: ServiceHealthQuery): Promise<{ listings: ServiceHealth[] }> {
    const rows: Record<string, unknown>[] = await this.dataSource.query(
      `SELECT l.id, l.slug, l.title, l.service_endpoint, recent.oks, recent.response_ms, day.up, day.probes,
              latest.tool_names AS latest_tools, latest.ok AS latest_ok, latest.response_ms AS latest_ms,
              latest.error AS latest_error, latest.checked_at AS latest_at
       FROM listings l
       ${PROBE_FACTS}
       WHERE l.vendor_id = $2 AND l.service_endpoint IS NOT NULL
       ORDER BY l.created_at DESC, l.id DESC`,
      [this.clock.now().toISOString(), vendorId],
    );
    return {
      listings: rows.map((row) => {
        const oks = row.oks as boolean[];
        const responseMs = row.response_ms as number[];
        return {
          id: row.id as string,
          slug: row.slug as string,
          title: row.title as string,
          serviceEndpoint: row.service_endpoint as string,
          serviceStatus: serviceStatusOf(
            oks.map((ok, i) => ({ ok, responseMs: responseMs[i] })),
            this.config.network.serviceDegradedMs,
          ),
          uptimePct: uptimeOf(row),
          latestCheck:
            row.latest_at === null
              ? null
              : {
                  status: row.latest_ok ? 'ok' : 'error',
                  responseMs: Number(row.latest_ms),
                  toolsCount: (row.latest_tools as string[]).length,
                  error: row.latest_error as string | null,
                  checkedAt: iso(row.latest_at as Date),
                },
        };
      }),
    };
  }
}
