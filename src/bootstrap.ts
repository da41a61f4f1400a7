import { DynamicModule, Logger } from '@nestjs/common';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppModule } from './app.module';
import { AppConfig } from './config/app-config';
import { Clock } from './platform/clock/clock';
import { startEmbeddedPostgres } from './platform/database/embedded-postgres';
import { createHttpApp } from './platform/http/http-app';
import { createRootLogger, PinoNestLogger } from './platform/http/logger';
import { Queues } from './platform/queue/queues';

export interface RunningServer {
  app: NestFastifyApplication;
  config: AppConfig;
  url: string;
  close(): Promise<void>;
}

/**
 * Fills in the defaults that need work: with no DATABASE_URL, an embedded
 * PostgreSQL is started and stopped with the returned `release`.
 */
export async function resolveInfrastructure(config: AppConfig): Promise<{ config: AppConfig; release: () => Promise<void> }> {
  if (config.databaseUrl) return { config, release: async () => undefined };
  const logger = new Logger('EmbeddedPostgres');
  const verbose = config.logLevel === 'debug' || config.logLevel === 'trace';
  const embedded = await startEmbeddedPostgres(config.dataDir, (message) => logger.log(message), { verbose });
  return { config: { ...config, databaseUrl: embedded.url }, release: () => embedded.stop() };
}

export async function startServer(
  baseConfig: AppConfig,
  features: DynamicModule['imports'] = [],
  clock?: Clock,
): Promise<RunningServer> {
  Logger.overrideLogger(new PinoNestLogger(createRootLogger(baseConfig)));
  const { config, release } = await resolveInfrastructure(baseConfig);
  let app: NestFastifyApplication | undefined;
  try {
    app = await createHttpApp(AppModule.forRoot(config, features, clock), config);
    await app.init(); // starts the processors and queue workers
    await app.get(Queues).started();
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    await app?.close().catch(() => undefined); // a half-started app must not keep its pools and timers
    await release();
    throw error;
  }
  const address = app.getHttpServer().address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      try {
        await app.close();
      } finally {
        await release();
      }
    })());
  return { app, config, url: `http://127.0.0.1:${port}`, close };
}
