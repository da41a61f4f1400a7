// Creates this run's template database (migrated once) and checks Redis. Each
// test file then clones the template, so concurrent runs never share data.
require('ts-node').register({ transpileOnly: true, compilerOptions: { module: 'commonjs' } });
const { Client } = require('pg');
const { DataSource } = require('typeorm');
const IORedis = require('ioredis');
const { dataSourceOptions } = require('../../src/platform/database/database.module');
const { migrate } = require('../../src/platform/database/migrate');
const { adminUrl, databaseUrl, dropStaleTestDatabases } = require('./test-databases');
const { generateSwaggerMetadata } = require('./swagger-metadata');

module.exports = async function globalSetup() {
  const runId = `svc_test_${Date.now().toString(36)}_${process.pid}`;
  process.env.SVC_TEST_RUN_ID = runId;
  process.env.SVC_SWAGGER_METADATA = generateSwaggerMetadata(runId);

  const admin = new Client({ connectionString: adminUrl() });
  try {
    await admin.connect();
  } catch (error) {
    throw new Error(`PostgreSQL is not reachable at ${adminUrl()} (set TEST_DATABASE_URL): ${error.message}`);
  }
  await dropStaleTestDatabases(admin);
  await admin.query(`CREATE DATABASE ${runId}_tpl`);
  await admin.end();

  const dataSource = await new DataSource(dataSourceOptions(databaseUrl(`${runId}_tpl`))).initialize();
  await migrate(dataSource);
  await dataSource.destroy();

  const redisUrl = process.env.TEST_REDIS_URL || process.env.REDIS_URL || 'redis://127.0.0.1:6379';
  const redis = new IORedis(redisUrl, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    connectTimeout: 1000,
    retryStrategy: () => null,
  });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    await redis.ping();
    process.env.SVC_TEST_REDIS_URL = redisUrl;
  } catch (error) {
    if (process.env.REQUIRE_REDIS === '1')
      throw new Error(`REQUIRE_REDIS=1 but Redis is not reachable at ${redisUrl}: ${error.message}`);
    console.warn(`Redis is not reachable at ${redisUrl}: Redis tests will be skipped (set REQUIRE_REDIS=1 to fail instead)`);
  } finally {
    redis.disconnect();
  }
};
