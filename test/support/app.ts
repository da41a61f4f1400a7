import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { DynamicModule } from '@nestjs/common';
import { SwaggerModule } from '@nestjs/swagger';
import { RunningServer, startServer } from '../../src/bootstrap';
import { loadConfig } from '../../src/config/app-config';
import { Clock } from '../../src/platform/clock/clock';
import { createTestDatabase, TestDatabase } from './database';

export interface TestApp {
  url: string;
  server: RunningServer;
  db: TestDatabase;
  /** Where this app stores release archives: a private temporary directory. */
  blobDir: string;
  close(): Promise<void>;
}

/** The real app on a real socket, on its own database. `ownDatabase: false` lets two apps share one. */
export async function startTestApp(
  options: { env?: Record<string, string>; features?: DynamicModule['imports']; db?: TestDatabase; clock?: Clock } = {},
): Promise<TestApp> {
  const db = options.db ?? (await createTestDatabase());
  const blobDir = options.env?.BLOB_DIR ?? (await mkdtemp(path.join(tmpdir(), 'svc-blobs-')));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: db.url,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    QUEUE_PREFIX: process.env.SVC_TEST_RUN_ID ?? 'svc-test',
    BLOB_DIR: blobDir,
    // A test app's share of PostgreSQL: 3 pooled + about 10 fixed sessions (budget in jest.config.js).
    DATABASE_POOL_MAX: '3',
    // Tests settle payments themselves (signed webhooks); the sandbox's own settlement is tested where it is on.
    PAY_SANDBOX_AUTO_SETTLE: 'false',
    ...options.env,
  });
  await loadSwaggerMetadata();
  const server = await startServer(config, options.features, options.clock);
  return {
    url: server.url,
    server,
    db,
    blobDir,
    async close() {
      await server.close();
      if (!options.db) await db.drop();
      if (!options.env?.BLOB_DIR) await rm(blobDir, { recursive: true, force: true });
    },
  };
}

let swaggerMetadata: Promise<void> | undefined;

/**
 * The OpenAPI plugin's metadata for the DTOs and controllers, generated once per run by the global setup
 * (test/support/swagger-metadata.js), as `nest build` compiles it into the server; once per test file.
 */
function loadSwaggerMetadata(): Promise<void> {
  const file = process.env.SVC_SWAGGER_METADATA;
  if (!file) throw new Error('SVC_SWAGGER_METADATA is unset: run the tests through jest, whose global setup generates it');
  swaggerMetadata ??= import(file).then(({ default: metadata }) => SwaggerModule.loadPluginMetadata(metadata));
  return swaggerMetadata;
}
