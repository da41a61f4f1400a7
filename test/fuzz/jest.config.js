/**
 * The fuzz suite over the OpenAPI document (`npm run test:fuzz`). Kept apart from the
 * root config, whose projects match only test/{unit,int,e2e}, so `npm test` never runs it.
 */
const root = require('node:path').resolve(__dirname, '../..');

module.exports = {
  rootDir: root,
  displayName: 'fuzz',
  testEnvironment: 'node',
  testMatch: ['<rootDir>/test/fuzz/**/*.fuzz.spec.ts'],
  // Transpiled file by file, with the OpenAPI plugin's metadata loaded by the test app (see the root jest.config.js).
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.json' }] },
  setupFilesAfterEnv: ['<rootDir>/test/support/jest-setup.ts'],
  globalSetup: '<rootDir>/test/support/global-setup.js',
  globalTeardown: '<rootDir>/test/support/global-teardown.js',
  // The whole run happens in one beforeAll; FUZZ_RUNS scales it.
  testTimeout: 15 * 60_000,
};
