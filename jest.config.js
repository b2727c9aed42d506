// Two tiers, told apart by file name: *.spec.ts (pure, fast) and *.int-spec.ts (real services).
const moduleNameMapper = {
  '^@ranking/testing$': '<rootDir>/test/support/index.ts',
  '^@ranking/([a-z-]+)$': '<rootDir>/libs/$1/src/index.ts',
  '^(\\.{1,2}/.*)\\.js$': '$1',
};
const transform = {
  '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.json' }],
};
const common = {
  rootDir: '.',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper,
  transform,
  testEnvironment: 'node',
  modulePathIgnorePatterns: ['<rootDir>/dist/'],
};

/** @type {import('jest').Config} */
export default {
  // Integration tests talk to real services; unit tests finish far sooner.
  testTimeout: 120000,
  projects: [
    {
      ...common,
      displayName: 'unit',
      testMatch: ['<rootDir>/{apps,libs,test}/**/*.spec.ts'],
      // RANKING_FC_SEED replays a property's failing draw.
      setupFilesAfterEnv: ['<rootDir>/test/support/fast-check-seed.ts'],
    },
    {
      ...common,
      displayName: 'integration',
      testMatch: ['<rootDir>/{apps,libs,test}/**/*.int-spec.ts'],
      globalSetup: '<rootDir>/test/global-setup.ts',
    },
  ],
};
