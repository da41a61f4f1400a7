/** The listing fields a vendor edits (spec "Listing editable fields"), and their allowed values. */
export const LISTING_STATUSES = ['published', 'unlisted', 'draft'] as const;
export const SERVICE_PROTOCOLS = ['mcp', 'a2a', 'https', 'acp'] as const;
export const SERVICE_TRANSPORTS = ['streamable_http', 'sse', 'stdio', 'jsonrpc'] as const;
export const PRICING_MODELS = ['one_time', 'metered', 'monthly', 'annual'] as const;
export const SETTLEMENT_METHODS = ['pay_mpp', 'pay_acp', 'free', 'wallet', 'invoice'] as const;

export type ListingStatus = (typeof LISTING_STATUSES)[number];
export type ServiceProtocol = (typeof SERVICE_PROTOCOLS)[number];
export type ServiceTransport = (typeof SERVICE_TRANSPORTS)[number];
export type PricingModel = (typeof PRICING_MODELS)[number];
export type SettlementMethod = (typeof SETTLEMENT_METHODS)[number];

export interface ListingChanges {
  title?: string;
  description?: string;
  tags?: string[];
  priceCents?: number;
  readmeMd?: string;
  status?: ListingStatus;
  serviceEndpoint?: string | null;
  serviceProtocol?: ServiceProtocol | null;
  serviceTransport?: ServiceTransport | null;
  pricingModel?: PricingModel;
  perCallCents?: number | null;
  settlementMethods?: SettlementMethod[];
  capabilities?: Record<string, unknown> | null;
  agentCard?: Record<string, unknown> | null;
}

/** The highest price a listing may ask, in cents. */
export const MAX_PRICE_CENTS = 100_000_000;

export const LISTING_LIMITS = {
  title: 120,
  description: 1024,
  tags: 10,
  tagLength: 32,
  readmeBytes: 512 * 1024,
  documentBytes: 16 * 1024,
} as const;

/** Fields that always hold a value: a PATCH may change them, never clear them with null. */
export const REQUIRED_LISTING_FIELDS = [
  'title',
  'description',
  'tags',
  'priceCents',
  'readmeMd',
  'status',
  'pricingModel',
  'settlementMethods',
] as const;

/** Fields a PATCH may clear with null. */
export const CLEARABLE_LISTING_FIELDS = [
  'serviceEndpoint',
  'serviceProtocol',
  'serviceTransport',
  'perCallCents',
  'capabilities',
  'agentCard',
] as const;
