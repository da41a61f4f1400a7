/** Three tiers by suffix: unit (no I/O), int (real PostgreSQL and Redis), e2e (the app over a real socket). */
const tier = (name) => ({
  displayName: name,
  testEnvironment: 'node',
  testMatch: [`<rootDir>/test/${name}/**/*.${name}.spec.ts`],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.json' }] },
  setupFilesAfterEnv: ['<rootDir>/test/support/jest-setup.ts'],
});

module.exports = {
  globalSetup: '<rootDir>/test/support/global-setup.js',
  globalTeardown: '<rootDir>/test/support/global-teardown.js',
  projects: [tier('unit'), tier('int'), tier('e2e')],
  testTimeout: 120_000,
};
