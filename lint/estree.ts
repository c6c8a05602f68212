// ESTree helpers shared by the rules: what a call's callee is named, where a
// const came from, and which JSX attributes carry URLs.

import { AST_NODE_TYPES, ASTUtils, type TSESLint, type TSESTree } from '@typescript-eslint/utils';

/** JSX attributes whose value is a URL the browser requests (compared lower-case). */
export const urlAttributes: ReadonlySet<string> = new Set([
  'href',
  'action',
  'formaction',
  'src',
  'hx-get',
  'hx-post',
  'hx-put',
  'hx-patch',
  'hx-delete',
  'hx-push-url',
  'hx-replace-url',
  'hx-action',
]);

/** Calls that build in-app URLs: their results and arguments are the right way to write a path. */
export const urlBuilders: ReadonlySet<string> = new Set(['urlFor', 'staticUrl']);

/**
 * The URL attribute a JSX attribute is, lower-cased, or undefined. htmx reads `data-hx-get` as `hx-get`.
 * @example urlAttributeOf(<a HREF="/x">) // → "href"
 */
export function urlAttributeOf(attr: TSESTree.JSXAttribute): string | undefined {
  if (attr.name.type !== AST_NODE_TYPES.JSXIdentifier) return undefined;
  const name = attr.name.name.toLowerCase();
  const bare = name.startsWith('data-hx-') ? name.slice(5) : name;
  return urlAttributes.has(bare) ? bare : undefined;
}

/**
 * The name a callee refers to: an import keeps its exported name (`import { urlFor as u }` → "urlFor"),
 * a method call gives the method's (`tree.urlFor` → "urlFor").
 * @example calleeName(call, sourceCode) // → "urlFor"
 */
export function calleeName(callee: TSESTree.Node, sourceCode: Readonly<TSESLint.SourceCode>): string | undefined {
  if (callee.type === AST_NODE_TYPES.MemberExpression) {
    return !callee.computed && callee.property.type === AST_NODE_TYPES.Identifier ? callee.property.name : undefined;
  }
  if (callee.type !== AST_NODE_TYPES.Identifier) return undefined;
  const def = ASTUtils.findVariable(sourceCode.getScope(callee), callee)?.defs[0];
  if (def?.node.type === AST_NODE_TYPES.ImportSpecifier) {
    const imported = def.node.imported;
    return imported.type === AST_NODE_TYPES.Identifier ? imported.name : imported.value;
  }
  return callee.name;
}

/**
 * The initial value of a variable that is never reassigned, or undefined.
 * @example constInit(identifier, sourceCode) // const url = urlFor(Page) → the `urlFor(Page)` call
 */
export function constInit(
  id: TSESTree.Identifier,
  sourceCode: Readonly<TSESLint.SourceCode>,
): TSESTree.Expression | undefined {
  const variable = ASTUtils.findVariable(sourceCode.getScope(id), id);
  const def = variable?.defs[0];
  if (!variable || variable.defs.length !== 1 || def?.node.type !== AST_NODE_TYPES.VariableDeclarator) return undefined;
  if (def.node.id.type !== AST_NODE_TYPES.Identifier || !def.node.init) return undefined;
  // A later assignment means the initial value says nothing about the value here.
  if (variable.references.some((r) => r.isWrite() && !r.init)) return undefined;
  return def.node.init;
}

/**
 * An expression without the type-only wrappers around it (`x as string`, `x!`, `x satisfies T`).
 * @example skipTypeWrappers(node) // `'/a' as const` → the '/a' literal
 */
export function skipTypeWrappers(node: TSESTree.Node): TSESTree.Node {
  let n = node;
  while (
    n.type === AST_NODE_TYPES.TSAsExpression ||
    n.type === AST_NODE_TYPES.TSNonNullExpression ||
    n.type === AST_NODE_TYPES.TSSatisfiesExpression ||
    n.type === AST_NODE_TYPES.TSTypeAssertion
  ) {
    n = n.expression;
  }
  return n;
}
