// The rule factory: every rule's `meta.docs.url` points at its section of docs/lint.md,
// the copy of the docs that ships with the package (no web site to link to).

import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ESLintUtils } from '@typescript-eslint/utils';

const docsFile = pathToFileURL(resolve(__dirname, '../docs/lint.md')).href;

/**
 * Creates a pagetree rule whose docs URL is its heading in docs/lint.md.
 * @example createRule({ name: 'url-attr', meta, create }).meta.docs.url // → "file:///…/docs/lint.md#url-attr"
 */
export const createRule = ESLintUtils.RuleCreator<{ requiresTypeChecking?: boolean }>((name) => `${docsFile}#${name}`);
