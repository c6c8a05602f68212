// pagetree/eslint-plugin: in-app URLs come from urlFor(), not from strings; htmx attributes and targets exist.
//
//   route-literal  '/admin/users' where App.admin.users is mounted → use urlFor(UsersPage)   (needs type information)
//   url-attr       <a href="/admin/users">                         → use urlFor(…) / staticUrl(…)
//   htmx-attr      <div hx-gett="…">                               → unknown htmx attribute (TypeScript cannot tell)
//   htmx-target    <div hx-target="#todo-list">                    → no element of the app has this id  (needs type information)
//
// Docs: docs/lint.md.

import { htmxAttr } from './rules/htmx-attr.ts';
import { htmxTarget } from './rules/htmx-target.ts';
import { routeLiteral } from './rules/route-literal.ts';
import { urlAttr } from './rules/url-attr.ts';

/** The plugin's rules, by name. */
export const rules = {
  'route-literal': routeLiteral,
  'url-attr': urlAttr,
  'htmx-attr': htmxAttr,
  'htmx-target': htmxTarget,
};

// Typed loosely, as typescript-eslint types its own configs (CompatibleConfig): @typescript-eslint/utils'
// FlatConfig.Config is not assignable to ESLint 10's defineConfig() (its languageOptions and processors differ).
interface CompatibleConfig {
  name?: string;
  plugins?: Record<string, { meta: { name: string } }>;
  rules?: object;
}

interface PagetreePlugin {
  meta: { name: string; version: string };
  rules: typeof rules;
  configs: { recommended: CompatibleConfig };
}

const plugin: PagetreePlugin = {
  meta: { name: 'pagetree/eslint-plugin', version: '0.1.0' },
  rules,
  configs: { recommended: {} },
};

// The config names the plugin object itself, so it is filled in once the plugin exists.
plugin.configs.recommended = {
  name: 'pagetree/recommended',
  plugins: { pagetree: plugin },
  rules: {
    'pagetree/route-literal': 'error',
    'pagetree/url-attr': 'error',
    'pagetree/htmx-attr': 'error',
    'pagetree/htmx-target': 'error',
  },
};

/**
 * The ESLint plugin: rules `route-literal`, `url-attr`, `htmx-attr` and `htmx-target`, and `configs.recommended`
 * (route-literal and htmx-target need typed linting: `parserOptions.projectService`).
 * @example
 * // eslint.config.mts
 * import tseslint from 'typescript-eslint';
 * import pagetree from 'pagetree/eslint-plugin';
 * export default [
 *   ...tseslint.configs.recommended,
 *   { files: ['src/**\/*.{ts,tsx}'], ...pagetree.configs.recommended,
 *     languageOptions: { parserOptions: { projectService: true } } },
 * ];
 */
export default plugin;
