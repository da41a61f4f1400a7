/** Three tiers by suffix: unit (no I/O), int (real PostgreSQL and Redis), e2e (the app over a real socket). */
// The same OpenAPI plugin as `nest build` (nest-cli.json), so DTO schemas match in tests.
const swaggerPlugin = { path: '<rootDir>/test/support/swagger-transformer.js' };

const tier = (name) => ({
  displayName: name,
  testEnvironment: 'node',
  testMatch: [`<rootDir>/test/${name}/**/*.${name}.spec.ts`],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.json', astTransformers: { before: [swaggerPlugin] } }] },
  setupFilesAfterEnv: ['<rootDir>/test/support/jest-setup.ts'],
});

module.exports = {
  // PostgreSQL budget (max_connections 100, shared with other runs and servers): a test app holds at most
  // 14 connections (DATABASE_POOL_MAX=3, see test/support/app.ts, + about 10 fixed), a file runs at most 2 apps,
  // so one worker stays under ~30 and two concurrent runs under ~60. Raise with --maxWorkers only when
  // the server has room.
  maxWorkers: 1,
  // Each file leaves a few hundred MB behind (its own module registry of Nest, TypeORM and the type-checked
  // ts-jest compiler), so one process running every file in band ran out of heap. A memory limit makes Jest
  // run files in a worker and replace that worker once it has grown past the limit.
  workerIdleMemoryLimit: '2GB',
  globalSetup: '<rootDir>/test/support/global-setup.js',
  globalTeardown: '<rootDir>/test/support/global-teardown.js',
  projects: [tier('unit'), tier('int'), tier('e2e')],
  testTimeout: 120_000,
};
