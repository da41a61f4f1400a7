import { Query } from '@nestjs/cqrs';

export interface SessionDetail {
  session: { id: string; status: string; protocol: string | null; transport: string | null; createdAt: string };
  role: 'buyer' | 'vendor';
  listingId: string;
  listingSlug: string;
  vendorSlug: string;
}

export interface MessageView {
  id: string;
  direction: string;
  messageType: string;
  correlationId: string | null;
  deliveryStatus: string;
  createdAt: string;
  payload: Record<string, unknown>;
}

export interface InboxItem {
  session: { id: string; status: string; protocol: string | null; transport: string | null; createdAt: string };
  listingSlug: string;
  listingId: string;
}

export interface ServiceItem {
  id: string;
  slug: string;
  title: string;
  vendorSlug: string;
  protocol: string | null;
  transport: string | null;
  endpoint: string;
  toolNames: string[];
  settlementMethods: string[];
  perCallCents: number | null;
  status: 'active' | 'inactive' | 'degraded';
  totalCalls: number;
  successRate: string;
  avgResponseMs: number;
  uptimePct: string;
}

export interface ServicePage {
  services: ServiceItem[];
  total: number;
  page: number;
  perPage: number;
}

export interface ServiceFilters {
  tool?: string;
  protocol?: string;
  settlement?: string;
  maxPerCallCents?: number;
  status?: 'active' | 'inactive' | 'degraded';
  verified?: boolean;
  sort: 'recent' | 'trusted';
  page: number;
  perPage: number;
}

export interface ServiceHealth {
  id: string;
  slug: string;
  title: string;
  serviceEndpoint: string;
  serviceStatus: 'active' | 'inactive' | 'degraded';
  uptimePct: string;
  latestCheck: { status: string; responseMs: number; toolsCount: number; error: string | null; checkedAt: string } | null;
}

/** The buyer's or the vendor's view of a session; 404 to anyone else. */
export class GetSessionQuery extends Query<SessionDetail> {
  constructor(
    readonly userId: string,
    readonly sessionId: string,
  ) {
    super();
  }
}

/** Oldest first, after the `after` message. */
export class ListMessagesQuery extends Query<{ messages: MessageView[] }> {
  constructor(
    readonly userId: string,
    readonly sessionId: string,
    readonly limit: number,
    readonly after?: string,
  ) {
    super();
  }
}

/** Open sessions on the vendor's listings, newest first. */
export class InboxQuery extends Query<{ sessions: InboxItem[] }> {
  constructor(
    readonly vendorId: string,
    readonly limit: number,
  ) {
    super();
  }
}

export class ListServicesQuery extends Query<ServicePage> {
  constructor(readonly filters: ServiceFilters) {
    super();
  }
}

/** The vendor's listings with a service, with their latest probe. */
export class ServiceHealthQuery extends Query<{ listings: ServiceHealth[] }> {
  constructor(readonly vendorId: string) {
    super();
  }
}
