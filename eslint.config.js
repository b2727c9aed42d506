// Lint rules that keep the house in order: typed promises, exhaustive switches,
// type-only imports, and the dependency direction (apps -> libs; the rating core is pure).
import tseslint from 'typescript-eslint';

const infrastructure = [
  '@nestjs/*',
  'kafkajs',
  'ioredis',
  'typeorm',
  'pg',
  'node:*',
  'fs',
  'path',
  'os',
  'child_process',
];

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'coverage/**',
      '.kafka/**',
      '.run/**',
      '**/*.js',
      '**/*.mjs',
    ],
  },
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: true },
      ],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['../../*'], message: 'Import libraries through their @ranking/* alias.' },
          ],
        },
      ],
    },
  },
  ...['rating', 'tournament', 'integrity'].map((core) => ({
    files: [`libs/${core}/**/*.ts`],
    ignores: ['**/*.spec.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: infrastructure,
              message: `The ${core} core is pure: no framework, IO or node: imports.`,
            },
            {
              group: ['@ranking/*', '!@ranking/contracts'],
              message: `The ${core} core imports nothing of ours but the contract.`,
            },
            { group: ['../../*'], message: 'Import libraries through their @ranking/* alias.' },
          ],
        },
      ],
    },
  })),
  {
    files: ['libs/**/*.ts'],
    ignores: ['libs/rating/**/*.ts', 'libs/tournament/**/*.ts', 'libs/integrity/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['apps/*', '**/apps/*'], message: 'Libraries never import apps.' },
            { group: ['../../*'], message: 'Import libraries through their @ranking/* alias.' },
          ],
        },
      ],
    },
  },
  // Adapters stand side by side: none imports another.
  ...['kafka', 'redis', 'persistence'].map((adapter) => ({
    files: [`libs/${adapter}/**/*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@ranking/kafka', '@ranking/redis', '@ranking/persistence'].filter(
                (a) => a !== `@ranking/${adapter}`,
              ),
              message: 'Adapters do not import each other.',
            },
            { group: ['../../*'], message: 'Import libraries through their @ranking/* alias.' },
          ],
        },
      ],
    },
  })),
  {
    files: ['**/*.spec.ts', '**/*.int-spec.ts', 'test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
);
