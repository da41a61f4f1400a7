import { DynamicModule, Logger } from '@nestjs/common';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppModule } from './app.module';
import { AppConfig } from './config/app-config';
import { Clock } from './platform/clock/clock';
import { startEmbeddedPostgres } from './platform/database/embedded-postgres';
import { createHttpApp } from './platform/http/http-app';
import { createRootLogger, PinoNestLogger } from './platform/http/logger';
import { Queues } from './platform/queue/queues';
import { ProcessorsService } from './projections/processors.service';

export interface RunningServer {
  app: NestFastifyApplication;
  config: AppConfig;
  url: string;
  /**
   * Stops the server (see `shutDown`); calling it again returns the same promise. Resolves to true when
   * everything that must be flushed was: processors at a checkpoint, the app and the embedded database closed.
   */
  close(): Promise<boolean>;
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
  const draining = { now: false };
  try {
    app = await createHttpApp(AppModule.forRoot(config, features, clock), config);
    closeConnectionsWhileDraining(app, draining);
    await app.init(); // starts the processors and queue workers
    await app.get(Queues).started();
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    // The app first (a port already in use fails after it started): a database stopped under running
    // workers makes BullMQ's worker loop retry without pause, which starves the event loop.
    await app?.close().catch(() => undefined);
    await release();
    throw error;
  }
  const address = app.getHttpServer().address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  let closing: Promise<boolean> | undefined;
  const close = () => (closing ??= shutDown(app, release, draining, config.shutdownTimeoutMs));
  return { app, config, url: `http://127.0.0.1:${port}`, close };
}

/**
 * A response finished while draining closes its connection, so the drain ends with the last request
 * rather than when an idle keep-alive connection times out. Node's closeIdleConnections never closes
 * a connection whose request is still being read or answered.
 */
function closeConnectionsWhileDraining(app: NestFastifyApplication, draining: { now: boolean }): void {
  const fastify = app.getHttpAdapter().getInstance();
  fastify.addHook('onSend', async (_request, reply) => {
    if (draining.now) reply.header('connection', 'close');
  });
  fastify.addHook('onResponse', async () => {
    if (draining.now) setImmediate(() => app.getHttpServer().closeIdleConnections());
  });
}

/**
 * Stops in the order that loses nothing, each step bounded by `timeoutMs`:
 * 1. stop listening and let the requests in flight finish; the processors keep running meanwhile, since a
 *    command's answer waits for them (read your writes). Requests still running at the bound are cut: a
 *    command appends atomically, so cutting one loses nothing, and the shutdown stays clean;
 * 2. stop the processors at a checkpoint, then close the app: queues (jobs in hand finish), the event
 *    store, the pools;
 * 3. stop the embedded PostgreSQL (a fast shutdown: it ends any session left open, then writes a checkpoint).
 * Resolves to false, having logged why, when step 2 failed or ran out of time (the embedded PostgreSQL is then
 * left to the exit hook in embedded-postgres.ts), or when the embedded PostgreSQL could not be stopped.
 */
async function shutDown(
  app: NestFastifyApplication,
  release: () => Promise<void>,
  draining: { now: boolean },
  timeoutMs: number,
): Promise<boolean> {
  const logger = new Logger('Shutdown');
  const http = app.getHttpServer();
  draining.now = true;
  const drained = app.getHttpAdapter().getInstance().close();
  if ((await settledWithin(drained, timeoutMs)) === 'timeout') {
    const busy = await new Promise<number>((resolve) => http.getConnections((_error, count) => resolve(count ?? 0)));
    logger.warn(`cutting ${busy} connection(s) still busy after SHUTDOWN_TIMEOUT_MS (${timeoutMs} ms)`);
    http.closeAllConnections();
    await settledWithin(drained, timeoutMs);
  }

  let step = 'stopping the processors';
  const teardown = (async () => {
    // Before the queues close: a process manager may enqueue a job for the event in hand.
    await app.get(ProcessorsService, { strict: false }).stop();
    step = 'closing the queues, the event store and the pools';
    await app.close();
  })();
  const tornDown = await settledWithin(teardown, timeoutMs);
  if (tornDown !== 'ok') {
    const why = tornDown === 'timeout' ? `still ${step} after ${timeoutMs} ms` : `${step}: ${String(tornDown.error)}`;
    logger.error(`the app did not stop cleanly (${why})`);
    // Not stopping the database under what is still running (BullMQ's worker loop would spin and starve the
    // event loop): an embedded PostgreSQL is signalled to stop as the process exits.
    return false;
  }

  const released = await settledWithin(release(), timeoutMs);
  if (released === 'timeout') {
    // It has been told to stop, and what it committed is already durable in its WAL: only its shutdown
    // checkpoint, paced by the disk, is left, and it finishes that on its own.
    logger.warn(`the embedded PostgreSQL is still writing its shutdown checkpoint after ${timeoutMs} ms; it finishes on its own`);
  } else if (released !== 'ok') {
    logger.error(`the embedded PostgreSQL did not stop: ${String(released.error)}`);
    return false;
  }
  return true;
}

async function settledWithin(work: Promise<unknown>, ms: number): Promise<'ok' | 'timeout' | { error: unknown }> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), ms)));
  try {
    return await Promise.race([
      work.then(
        () => 'ok' as const,
        (error: unknown) => ({ error }),
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
