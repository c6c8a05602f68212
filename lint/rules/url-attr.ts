// url-attr: JSX URL attributes must not hold hand-written in-app paths.
//
//   <a href="/admin/users">                 → reported
//   <a href={`/users/${id}`}>               → reported (starts with a path)
//   <a href={base + '/users'}>              → reported (a path follows a value we cannot see)
//   <a href={urlFor(UsersPage)}>            → fine
//   <a href="https://example.com/x">        → fine (external), as are #top, mailto:, //cdn…, "", "edit"
//
// A value is judged by how it starts: its first literal text decides (an
// absolute URL, an anchor or a relative path stays what it is, whatever follows);
// when it starts with an expression, the first literal text after it decides,
// up to a "?" or "#" (after those, a "/" is a query or fragment value, not a path).

import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { createRule } from '../create-rule.ts';
import { constInit, skipTypeWrappers, urlAttributeOf } from '../estree.ts';

type Part = string | TSESTree.Node;
type Start = 'internal' | 'other' | 'empty' | 'unknown';

// How far to follow consts (`const a = b; const b = '/x'`) before giving up.
const maxDepth = 5;

/**
 * Reports JSX URL attributes whose value is a literal in-app path instead of a `urlFor`/`staticUrl` result.
 * @example <a href="/admin/users"> // → href="/admin/users" is an in-app path written by hand; …
 */
export const urlAttr = createRule({
  name: 'url-attr',
  meta: {
    type: 'problem',
    docs: {
      description: 'Require urlFor()/staticUrl() for in-app paths in href, src, action and hx-* URL attributes',
    },
    schema: [],
    messages: {
      internalPath:
        '{{attribute}}={{value}} is an in-app path written by hand; build it with urlFor(Page) ' +
        "(or staticUrl('file') for a static asset) so a moved route is caught at compile time",
    },
  },
  create(context) {
    const sourceCode = context.sourceCode;

    // How a value starts: an in-app path, something else (an absolute URL, an anchor, a relative path),
    // nothing (""), or a value we cannot see (a parameter, a call, urlFor()).
    const startOf = (node: TSESTree.Node, depth: number): Start => {
      const n = skipTypeWrappers(node);
      switch (n.type) {
        case AST_NODE_TYPES.Literal:
          return typeof n.value === 'string' ? startOfText(n.value) : 'unknown';
        case AST_NODE_TYPES.TemplateLiteral:
          return startOfParts(templateParts(n), depth);
        case AST_NODE_TYPES.BinaryExpression:
          return n.operator === '+' ? startOfParts(concatParts(n), depth) : 'unknown';
        case AST_NODE_TYPES.ConditionalExpression:
          return either(startOf(n.consequent, depth), startOf(n.alternate, depth));
        case AST_NODE_TYPES.LogicalExpression:
          return either(startOf(n.left, depth), startOf(n.right, depth));
        case AST_NODE_TYPES.Identifier: {
          const init = depth < maxDepth ? constInit(n, sourceCode) : undefined;
          return init ? startOf(init, depth + 1) : 'unknown';
        }
        default:
          return 'unknown';
      }
    };

    const startOfParts = (parts: readonly Part[], depth: number): Start => {
      let afterUnknown = false;
      for (const part of parts) {
        const start = typeof part === 'string' ? startOfText(part) : startOf(part, depth);
        if (start === 'internal') return 'internal';
        if (start === 'empty') continue;
        if (start === 'unknown') {
          afterUnknown = true;
          continue;
        }
        // Literal text that is not a path: first, it decides the kind of URL ("https://…", "#…", "x/…");
        // after a value we cannot see, it continues that value until a "?" or "#" ends the path.
        if (!afterUnknown || (typeof part === 'string' && /[?#]/.test(part))) return 'other';
      }
      return afterUnknown ? 'unknown' : 'empty';
    };

    return {
      JSXAttribute(attr) {
        if (!attr.value || !urlAttributeOf(attr)) return;
        const value = attr.value.type === AST_NODE_TYPES.JSXExpressionContainer ? attr.value.expression : attr.value;
        if (value.type === AST_NODE_TYPES.JSXEmptyExpression || startOf(value, 0) !== 'internal') return;
        const text = sourceCode.getText(attr.value);
        context.report({
          node: attr.value,
          messageId: 'internalPath',
          data: {
            attribute: sourceCode.getText(attr.name),
            value: text.length > 80 ? `${text.slice(0, 77)}...` : text,
          },
        });
      },
    };
  },
});

function startOfText(text: string): Start {
  if (text === '') return 'empty';
  return text.startsWith('/') && !text.startsWith('//') ? 'internal' : 'other';
}

function either(a: Start, b: Start): Start {
  if (a === 'internal' || b === 'internal') return 'internal';
  return a === b ? a : 'unknown';
}

function templateParts(t: TSESTree.TemplateLiteral): Part[] {
  const parts: Part[] = [];
  t.quasis.forEach((q, i) => {
    parts.push(q.value.cooked ?? q.value.raw);
    const e = t.expressions[i];
    if (e) parts.push(e);
  });
  return parts;
}

// 'a' + b + 'c' parses as (('a' + b) + 'c'): flatten the left-leaning chain, keep literals as text.
function concatParts(n: TSESTree.Node): Part[] {
  if (n.type === AST_NODE_TYPES.BinaryExpression && n.operator === '+') {
    return [...concatParts(n.left), ...concatParts(n.right)];
  }
  const s = skipTypeWrappers(n);
  if (s.type === AST_NODE_TYPES.Literal && typeof s.value === 'string') return [s.value];
  if (s.type === AST_NODE_TYPES.TemplateLiteral) return templateParts(s);
  return [n];
}
