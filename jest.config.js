/**
 * Three tiers by suffix: unit (no I/O), int (real PostgreSQL and Redis), e2e (the app over a real socket).
 * Files are transpiled one by one (`isolatedModules` in tsconfig.json), a third of the CPU of type-checking
 * each; `npm run typecheck` checks the types. The OpenAPI plugin's metadata is generated once per run
 * (test/support/swagger-metadata.js), so DTO schemas match `nest build`'s.
 */

const tier = (name) => ({
  displayName: name,
  testEnvironment: 'node',
  testMatch: [`<rootDir>/test/${name}/**/*.${name}.spec.ts`],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.json' }] },
  setupFilesAfterEnv: ['<rootDir>/test/support/jest-setup.ts'],
});

module.exports = {
  // Two workers, one per core. PostgreSQL budget (max_connections 100, shared with other runs and servers): a
  // test app holds at most 14 connections (DATABASE_POOL_MAX=3, see test/support/app.ts, + about 10 fixed), a
  // file runs at most 2 apps, so a worker stays under ~30 and the two under ~60.
  maxWorkers: 2,
  // Each file leaves a few hundred MB behind (its own module registry of Nest, TypeORM and the type-checked
  // ts-jest compiler), so one process running every file in band ran out of heap. A memory limit makes Jest
  // run files in a worker and replace that worker once it has grown past the limit.
  workerIdleMemoryLimit: '2GB',
  globalSetup: '<rootDir>/test/support/global-setup.js',
  globalTeardown: '<rootDir>/test/support/global-teardown.js',
  projects: [tier('unit'), tier('int'), tier('e2e')],
  testTimeout: 120_000,
};
