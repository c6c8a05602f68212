/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  // Two workers on a 2-core machine (jest's default is one fewer than the cores): much of the suite waits on child
  // processes (npm, tsc, servers, Chromium), so the second worker fills the idle time (.ci/run on a clean clone:
  // 16 min 11 s with one worker, 13 min 37 s with two, 2026-11-26).
  maxWorkers: 2,
  // A hang guard, not a speed check: jest's 5 s default failed tests that build an ESLint program or hash with scrypt
  // when the machine's two cores were shared (a test that must wait longer says so itself).
  testTimeout: 20_000,
  roots: ['<rootDir>/__tests__'],
  testMatch: ['**/*.test.ts', '**/*.test.tsx'],
  transform: {
    // typed-html's components compile with their own tsconfig (classic JSX, no kitajs runtime).
    '/__tests__/typed-html/.+\\.tsx$': ['ts-jest', { tsconfig: '<rootDir>/__tests__/typed-html/tsconfig.json' }],
    '^.+\\.tsx?$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.json' }],
    // mime is ES modules only; jest runs CommonJS, so it is compiled like our sources.
    '/node_modules/mime/.+\\.js$': ['ts-jest', { tsconfig: { allowJs: true, module: 'commonjs' } }],
  },
  transformIgnorePatterns: ['/node_modules/(?!mime/)'],
  moduleFileExtensions: ['ts', 'tsx', 'js', 'json'],
  // The package's own name, as the JSX transform and the docs' examples import it.
  moduleNameMapper: {
    // Sources import each other as `./x.ts`; ts-jest emits `./x.js` (rewriteRelativeImportExtensions), which is
    // resolved back to the source here.
    '^(\\.{1,2}/.*)\\.js$': '$1',
    '^pagetree$': '<rootDir>/core/index.ts',
    '^pagetree/auth$': '<rootDir>/core/auth/index.ts',
    '^pagetree/compress$': '<rootDir>/core/compress/index.ts',
    '^pagetree/forms$': '<rootDir>/core/forms/index.ts',
    '^pagetree/htmx$': '<rootDir>/core/htmx/index.ts',
    '^pagetree/live$': '<rootDir>/core/live/index.ts',
    '^pagetree/observe$': '<rootDir>/core/observe/index.ts',
    '^pagetree/static$': '<rootDir>/core/static/index.ts',
    '^pagetree/testing$': '<rootDir>/core/testing.ts',
    '^pagetree/tree$': '<rootDir>/core/tree/index.ts',
    '^pagetree/adapter$': '<rootDir>/core/adapter.ts',
    '^pagetree/node$': '<rootDir>/core/node/index.ts',
    '^pagetree/bun$': '<rootDir>/core/bun/index.ts',
    '^pagetree/deno$': '<rootDir>/core/deno/index.ts',
    '^pagetree/cloudflare$': '<rootDir>/core/cloudflare/index.ts',
    '^pagetree/postgres$': '<rootDir>/core/engines/postgres.ts',
    '^pagetree/redis$': '<rootDir>/core/engines/redis.ts',
    '^pagetree/jsx-runtime$': '<rootDir>/jsx-runtime/index.ts',
    '^pagetree/jsx-dev-runtime$': '<rootDir>/jsx-runtime/dev.ts',
  },
};
