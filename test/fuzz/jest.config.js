/**
 * The fuzz suite over the OpenAPI document (`npm run test:fuzz`). Kept apart from the
 * root config, whose projects match only test/{unit,int,e2e}, so `npm test` never runs it.
 */
const root = require('node:path').resolve(__dirname, '../..');
// The same OpenAPI plugin as `nest build`, so the document has the DTO schemas the built server serves.
const swaggerPlugin = { path: '<rootDir>/test/support/swagger-transformer.js' };

module.exports = {
  rootDir: root,
  displayName: 'fuzz',
  testEnvironment: 'node',
  testMatch: ['<rootDir>/test/fuzz/**/*.fuzz.spec.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.json', astTransformers: { before: [swaggerPlugin] } }] },
  setupFilesAfterEnv: ['<rootDir>/test/support/jest-setup.ts'],
  globalSetup: '<rootDir>/test/support/global-setup.js',
  globalTeardown: '<rootDir>/test/support/global-teardown.js',
  // The whole run happens in one beforeAll; FUZZ_RUNS scales it.
  testTimeout: 15 * 60_000,
};
