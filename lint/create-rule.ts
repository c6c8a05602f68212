// The rule factory: every rule's `meta.docs.url` points at its section of docs/lint.md, the copy of the docs that
// ships in the package (served by unpkg once published: there is no web site to link to, and a file: URL would
// need this module's location, which CommonJS and ESM spell differently).

import { ESLintUtils } from '@typescript-eslint/utils';

const docsFile = 'https://unpkg.com/pagetree/docs/lint.md';

/**
 * Creates a pagetree rule whose docs URL is its heading in docs/lint.md.
 * @example createRule({ name: 'url-attr', meta, create }).meta.docs.url // → "https://unpkg.com/pagetree/docs/lint.md#url-attr"
 */
export const createRule = ESLintUtils.RuleCreator<{ requiresTypeChecking?: boolean }>((name) => `${docsFile}#${name}`);
