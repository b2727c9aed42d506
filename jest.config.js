// Two tiers, told apart by file name: *.spec.ts (pure, fast) and *.int-spec.ts (real services).
const moduleNameMapper = {
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
  projects: [
    {
      ...common,
      displayName: 'unit',
      testMatch: ['<rootDir>/{apps,libs,test}/**/*.spec.ts'],
    },
    {
      ...common,
      displayName: 'integration',
      testMatch: ['<rootDir>/{apps,libs,test}/**/*.int-spec.ts'],
      globalSetup: '<rootDir>/test/global-setup.ts',
      testTimeout: 120000,
    },
  ],
};
