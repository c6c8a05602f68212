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
    files: ['pages-example/**/*.{ts,tsx}'],
    extends: [pagetree.configs.recommended],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
  },
);
