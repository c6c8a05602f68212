// The RuleTester setup the lint tests share: typed linting over the fixture
// projects in fixtures/ (each folder has its own tsconfig.json; the project
// service picks the nearest one, as it does for an editor).

import { join } from 'node:path';
import { RuleTester, type Rule } from 'eslint';
import tseslint from 'typescript-eslint';

/** The fixture projects' folder. */
export const fixtures = join(__dirname, 'fixtures');

/** A fixture file's absolute path, e.g. fixture('app/subject.ts'). */
export function fixture(path: string): string {
  return join(fixtures, path);
}

/**
 * A RuleTester with typed linting (JSX on) over the fixture projects.
 * @example ruleTester().run('url-attr', asEslintRule(urlAttr), { valid, invalid })
 */
export function ruleTester(): RuleTester {
  return new RuleTester({
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: {
        projectService: true,
        tsconfigRootDir: fixtures,
        ecmaFeatures: { jsx: true },
      },
    },
  });
}

/** typescript-eslint's rule type and ESLint's describe the same object; RuleTester wants ESLint's. */
export function asEslintRule(rule: unknown): Rule.RuleModule {
  return rule as Rule.RuleModule;
}
