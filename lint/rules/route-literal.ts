// route-literal: a string that is exactly the URL of a mounted page.
//
//   mount(mux, App, '/')   class App { admin = route('/admin', Admin) }   class Admin { users = route('/users', UsersPage) }
//
//   fetch('/admin/users')               → reported: use urlFor(UsersPage)
//   if (path === '/admin/users')        → fine: a comparison reads a URL, it does not make one
//   '/admin/users/'  '/admin/users?x'   → fine: not the route's URL
//   '/admin/users/{id}'                 → fine: a pattern, not a URL
//
// The mounted URLs come from the route tree of the file's TypeScript program
// (route-tree.ts); without a mount in the program the rule does nothing.

import { AST_NODE_TYPES, ESLintUtils, type TSESTree } from '@typescript-eslint/utils';
import { createRule } from '../create-rule.ts';
import { calleeName, urlAttributeOf } from '../estree.ts';
import { projectDir, routeTreeOf, type MountedRoute, type RouteTree } from '../route-tree.ts';
import { isIgnoredFile } from '../source-files.ts';

const comparisons = new Set(['===', '!==', '==', '!=']);
// Calls whose string arguments are route declarations or URL-builder input, not URLs.
const declaringCalls = new Set(['route', 'urlFor', 'staticUrl', 'mount']);

/**
 * Reports string literals equal to the URL of a mounted page, with the `urlFor` call to use instead.
 * @example fetch('/admin/users') // → route literal "/admin/users" matches the mounted page App.admin.users (UsersPage); use urlFor(UsersPage) …
 */
export const routeLiteral = createRule({
  name: 'route-literal',
  meta: {
    type: 'problem',
    docs: {
      description: 'Disallow string literals that equal the URL of a mounted page; use urlFor()',
      requiresTypeChecking: true,
    },
    schema: [],
    messages: {
      routeLiteral:
        'route literal "{{url}}" matches the mounted {{pages}}; use {{fix}} so a moved route is caught here',
    },
  },
  create(context) {
    if (!/\.[cm]?tsx?$/.test(context.filename)) return {};
    const { program } = ESLintUtils.getParserServices(context);
    const tree = routeTreeOf(program);
    if (tree.byUrl.size === 0) return {};
    if (isIgnoredFile(context.filename, projectDir(program), context.sourceCode.text)) return {};
    const sourceCode = context.sourceCode;

    const check = (node: TSESTree.Literal | TSESTree.TemplateLiteral, value: string) => {
      const matches = tree.byUrl.get(value);
      if (!matches || isSkipped(node)) return;
      context.report({
        node,
        messageId: 'routeLiteral',
        data: { url: value, pages: describePages(matches), fix: fixFor(matches[0]!, tree) },
      });
    };

    const isSkipped = (node: TSESTree.Node): boolean => {
      let child: TSESTree.Node = node;
      let parent = node.parent;
      // `urlFor([ListPage, '/x'])`: look through the chain's array to the call.
      if (parent?.type === AST_NODE_TYPES.ArrayExpression) {
        child = parent;
        parent = parent.parent;
      }
      if (!parent) return false;
      switch (parent.type) {
        case AST_NODE_TYPES.BinaryExpression:
          return comparisons.has(parent.operator);
        case AST_NODE_TYPES.SwitchCase:
          return parent.test === child;
        case AST_NODE_TYPES.CallExpression:
        case AST_NODE_TYPES.NewExpression:
          return (
            parent.arguments.includes(child as TSESTree.CallExpressionArgument) &&
            declaringCalls.has(calleeName(parent.callee, sourceCode) ?? '')
          );
        // Types, module names: not values a program sends anywhere.
        case AST_NODE_TYPES.TSLiteralType:
        case AST_NODE_TYPES.ImportDeclaration:
        case AST_NODE_TYPES.ExportAllDeclaration:
        case AST_NODE_TYPES.ExportNamedDeclaration:
        case AST_NODE_TYPES.ImportExpression:
        case AST_NODE_TYPES.TSExternalModuleReference:
          return true;
        // JSX URL attributes are url-attr's: one report per mistake.
        case AST_NODE_TYPES.JSXAttribute:
          return urlAttributeOf(parent) !== undefined;
        case AST_NODE_TYPES.JSXExpressionContainer:
          return parent.parent.type === AST_NODE_TYPES.JSXAttribute && urlAttributeOf(parent.parent) !== undefined;
        default:
          return false;
      }
    };

    return {
      Literal(node) {
        if (typeof node.value === 'string') check(node, node.value);
      },
      TemplateLiteral(node) {
        const only = node.quasis[0];
        if (node.expressions.length === 0 && only?.value.cooked != null) check(node, only.value.cooked);
      },
    };
  },
});

function describePages(matches: readonly MountedRoute[]): string {
  const each = matches.map((r) => (r.className ? `${r.fieldPath} (${r.className})` : r.fieldPath));
  return `${matches.length === 1 ? 'page' : 'pages'} ${each.join(', ')}`;
}

// urlFor(Class) when the class is mounted once; else the field path below the root, which is unique.
function fixFor(route: MountedRoute, tree: RouteTree): string {
  const below = route.fieldPath.split('.').slice(1).join('.');
  if ((route.className && tree.classCount.get(route.className) === 1) || !below) {
    return `urlFor(${route.className || JSON.stringify(route.fieldPath)})`;
  }
  return `urlFor(${JSON.stringify(below)})`;
}
