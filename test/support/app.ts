import { DynamicModule } from '@nestjs/common';
import { RunningServer, startServer } from '../../src/bootstrap';
import { loadConfig } from '../../src/config/app-config';
import { Clock } from '../../src/platform/clock/clock';
import { createTestDatabase, TestDatabase } from './database';

export interface TestApp {
  url: string;
  server: RunningServer;
  db: TestDatabase;
  close(): Promise<void>;
}

/** The real app on a real socket, on its own database. `ownDatabase: false` lets two apps share one. */
export async function startTestApp(
  options: { env?: Record<string, string>; features?: DynamicModule['imports']; db?: TestDatabase; clock?: Clock } = {},
): Promise<TestApp> {
  const db = options.db ?? (await createTestDatabase());
  const config = loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: db.url,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    QUEUE_PREFIX: process.env.SVC_TEST_RUN_ID ?? 'svc-test',
    ...options.env,
  });
  const server = await startServer(config, options.features, options.clock);
  return {
    url: server.url,
    server,
    db,
    async close() {
      await server.close();
      if (!options.db) await db.drop();
    },
  };
}
