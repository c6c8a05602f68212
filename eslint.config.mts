// ESLint (flat config, loaded through jiti so it can import the plugin's TypeScript
// sources): typescript-eslint's recommended rules everywhere, and pagetree's own
// rules on the example app, with typed linting for route-literal.

import { defineConfig, globalIgnores } from 'eslint/config';
import tseslint from 'typescript-eslint';
import pagetree from './lint/index.ts';

export default defineConfig(
  globalIgnores([
    'coverage/',
    'dist/',
    'build/',
    'bench/**/results*',
    'bench/types/.generated/',
    '__tests__/e2e/artifacts/',
  ]),
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  { files: ['**/*.{ts,tsx,mts,cts}'], extends: [tseslint.configs.recommended] },
  {
    // Every promise the framework creates is awaited or given a handler where it is created (STYLE.md, Faults): a
    // rejection nobody handles ends a Node process, and one client can cause it (issue 40). Typed linting sees a
    // promise dropped as a statement or handed where a void callback is expected; a promise parked in a list or a
    // field it cannot follow, so those get a `.catch` where they are made, and the chaos suite (__tests__/chaos)
    // drives every feature with clients that fail.
    files: ['core/**/*.{ts,tsx}', 'jsx-runtime/**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // `void p` stays allowed: it says that p cannot reject (its handlers are inside), which its line explains.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
  {
    files: ['pages-example/**/*.{ts,tsx}'],
    extends: [pagetree.configs.recommended],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
  },
);
