import * as path from 'node:path';
import { ConfigError, loadConfig } from '../../src/config/app-config';

describe('configuration', () => {
  it('needs nothing: every variable has a default', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      baseUrl: 'http://localhost:3000',
      webUrl: 'http://localhost:3000',
      dataDir: path.resolve('.data'),
      databaseUrl: undefined,
      redisUrl: undefined,
      eventStore: 'postgres',
      runProcessors: true,
      databasePool: { max: 10, connectTimeoutMs: 5_000 },
      logFormat: 'auto',
      downloads: { urlSecret: undefined, urlTtlSeconds: 300 },
    });
  });

  it('reads and types every variable', () => {
    const config = loadConfig({
      PORT: '8080',
      BASE_URL: 'https://api.example.com/',
      WEB_URL: 'https://example.com',
      DATABASE_URL: 'postgres://u@db:5432/svc',
      REDIS_URL: 'redis://cache:6379',
      EVENT_STORE: 'eventstoredb',
      EVENTSTORE_URL: 'esdb://es:2113?tls=false',
      DATA_DIR: '/var/lib/svc',
      RATE_LIMIT_MAX: '10',
      RUN_PROCESSORS: 'false',
      DATABASE_POOL_MAX: '4',
      DATABASE_CONNECT_TIMEOUT_MS: '1500',
      LOG_FORMAT: 'pretty',
      DOWNLOAD_URL_SECRET: 'download-key',
      DOWNLOAD_URL_TTL_SECONDS: '60',
    });
    expect(config).toMatchObject({
      port: 8080,
      baseUrl: 'https://api.example.com',
      webUrl: 'https://example.com',
      redisUrl: 'redis://cache:6379',
      eventStore: 'eventstoredb',
      dataDir: '/var/lib/svc',
      rateLimit: { max: 10, windowMs: 60_000 },
      runProcessors: false,
      databasePool: { max: 4, connectTimeoutMs: 1500 },
      logFormat: 'pretty',
      downloads: { urlSecret: 'download-key', urlTtlSeconds: 60 },
    });
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ REDIS_URL: 'not a url' }, 'REDIS_URL'],
    [{ BASE_URL: 'ftp://x' }, 'BASE_URL'],
    [{ EVENT_STORE: 'kafka' }, 'EVENT_STORE'],
    [{ EVENT_STORE: 'eventstoredb' }, 'EVENTSTORE_URL'],
    [{ RUN_PROCESSORS: 'maybe' }, 'RUN_PROCESSORS'],
    [{ NODE_ENV: 'production' }, 'DATABASE_URL'],
    [{ DATABASE_POOL_MAX: 'ten' }, 'DATABASE_POOL_MAX'],
    [{ DATABASE_POOL_MAX: '1' }, 'DATABASE_POOL_MAX'],
    [{ DATABASE_POOL_MAX: '5000' }, 'DATABASE_POOL_MAX'],
    [{ DATABASE_CONNECT_TIMEOUT_MS: '0' }, 'DATABASE_CONNECT_TIMEOUT_MS'],
    [{ LOG_FORMAT: 'yaml' }, 'LOG_FORMAT'],
    [{ DOWNLOAD_URL_TTL_SECONDS: '0' }, 'DOWNLOAD_URL_TTL_SECONDS'],
    [{ DOWNLOAD_URL_TTL_SECONDS: 'soon' }, 'DOWNLOAD_URL_TTL_SECONDS'],
  ])('fails fast on %j, naming %s', (env, variable) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(new RegExp(`^Invalid configuration: ${variable} `));
  });
});
