// htmx-target: an `#id` written by hand in hx-target (or another attribute that names elements of the page) must
// be the id of an element the app renders: a component's, as mount gives it, or one its source writes.
//
//   mount(mux, App)   class App { todos = route('/todos', TodosPage) }   class TodosPage { todoList() {…} }
//
//   <button hx-target="#todos-todo-list">    → fine: the id mount gives App.todos.todoList
//   <button hx-target="#main">               → fine when some file of the app writes id="main" (a layout)
//   <button hx-target="#todo-list">          → reported: no element has it; did you mean "#todos-todo-list"?
//   <button hx-target="#update-other-content-events-contacts-table">
//                                            → reported: mount shortened that id (with maxIdLength: 40)
//   hx-target={idTarget(this.todoList)}, "closest tr", "this", "#a .b", {target}   → not checked
//
// Which page the element ends up on is not known here (a component can be rendered by any page), so an id counts
// if any page of the app can have it. The ids come from the program's mounted trees (route-tree.ts) and from what
// its files write (written-ids.ts); without a mount, or when a mount's ids cannot be known, the rule does nothing.

import { AST_NODE_TYPES, ESLintUtils, type TSESTree } from '@typescript-eslint/utils';
import { htmxAttributeSuffixes } from '../../jsx-runtime/htmx-names.ts';
import { createRule } from '../create-rule.ts';
import { closestName } from '../edit-distance.ts';
import { constInit, skipTypeWrappers } from '../estree.ts';
import { projectDir, routeTreeOf, type ComponentId } from '../route-tree.ts';
import { isIgnoredFile } from '../source-files.ts';
import { isWritten, writtenIdsOf } from '../written-ids.ts';

/** The htmx attributes whose value selects elements of the page (compared lower-case, without `data-`). */
export const selectorAttributes: ReadonlySet<string> = new Set([
  'hx-target',
  'hx-include',
  'hx-indicator',
  'hx-disabled-elt',
  'hx-disable', // htmx 4: the elements to disable during the request
]);

// One selector of a list that is an id, maybe after one of htmx's extended-selector words: "#x", "closest #x".
const idSelector = /^(?:(?:closest|find|findAll|next|previous)\s+)?#(-?[A-Za-z_][\w-]*)$/;

/**
 * Reports a hand-written `#id` in hx-target, hx-include, hx-indicator, hx-disabled-elt or hx-disable that is not
 * the id of any element of the app: neither a component's id in the mounted tree nor an id its source writes.
 * @example <button hx-target="#todo-list"> // → hx-target="#todo-list" names no element of the app; … did you mean "#todos-todo-list"?
 */
export const htmxTarget = createRule({
  name: 'htmx-target',
  meta: {
    type: 'problem',
    docs: {
      description: 'Report an #id in hx-target and other htmx selectors that no element of the app has',
      requiresTypeChecking: true,
    },
    schema: [],
    messages: {
      unknown:
        '{{attribute}}="{{value}}" names no element of the app: no component of the mounted tree has the id ' +
        '"{{id}}" and no file writes it{{hint}}; write idTarget(this.method) for a component, or disable this ' +
        'line if a script makes the element',
      shortened:
        '{{attribute}}="{{value}}" names no element of the app: mount shortens ids longer than maxIdLength, and ' +
        'the id of {{where}} is "{{actual}}"; write idTarget(this.{{method}}), which always gives the id mount gave',
    },
  },
  create(context) {
    if (!/\.[cm]?[jt]sx$/.test(context.filename)) return {};
    const { program } = ESLintUtils.getParserServices(context);
    const tree = routeTreeOf(program);
    const ids = tree.ids;
    if (tree.routes.length === 0 || !ids) return {};
    if (isIgnoredFile(context.filename, projectDir(program), context.sourceCode.text)) return {};
    const written = writtenIdsOf(program);
    let shortened: Map<string, ComponentId> | undefined;

    const check = (attribute: string, value: string, node: TSESTree.Node) => {
      for (const part of value.split(',')) {
        const id = idSelector.exec(part.trim())?.[1];
        if (id === undefined || ids.has(id) || isWritten(written, id)) continue;
        shortened ??= new Map([...ids.values()].filter((c) => c.fullId !== c.id).map((c) => [c.fullId, c]));
        const owner = shortened.get(id);
        if (owner) {
          const where = `${owner.route.fieldPath}.${owner.method}`;
          context.report({
            node,
            messageId: 'shortened',
            data: { attribute, value, where, actual: owner.id, method: owner.method },
          });
          continue;
        }
        const suggestion = suggest(id, [...ids.keys(), ...written.exact]);
        context.report({
          node,
          messageId: 'unknown',
          data: { attribute, value, id, hint: suggestion ? `; did you mean "#${suggestion}"?` : '' },
        });
      }
    };

    return {
      JSXAttribute(node) {
        const attribute = attributeName(node);
        if (!selectorAttributes.has(baseName(attribute))) return;
        const value = constantValue(node.value, context.sourceCode);
        if (value !== undefined) check(attribute, value, node);
      },
    };
  },
  defaultOptions: [],
});

// "data-hx-target:inherited" → "hx-target".
function baseName(attribute: string): string {
  let name = attribute.toLowerCase();
  if (name.startsWith('data-')) name = name.slice(5);
  const suffix = htmxAttributeSuffixes.find((s) => name.endsWith(s));
  return suffix ? name.slice(0, -suffix.length) : name;
}

function attributeName(attr: TSESTree.JSXAttribute): string {
  return attr.name.type === AST_NODE_TYPES.JSXNamespacedName
    ? `${attr.name.namespace.name}:${attr.name.name.name}`
    : attr.name.name;
}

// The attribute's text when it is written in the file: a string, a template without holes, or a const of one.
function constantValue(
  value: TSESTree.JSXAttribute['value'],
  sourceCode: Parameters<typeof constInit>[1],
): string | undefined {
  if (!value) return undefined;
  let node: TSESTree.Node = value;
  if (node.type === AST_NODE_TYPES.JSXExpressionContainer) node = skipTypeWrappers(node.expression);
  if (node.type === AST_NODE_TYPES.Identifier) {
    const init = constInit(node, sourceCode);
    if (!init) return undefined;
    node = skipTypeWrappers(init);
  }
  if (node.type === AST_NODE_TYPES.Literal) return typeof node.value === 'string' ? node.value : undefined;
  if (node.type === AST_NODE_TYPES.TemplateLiteral && node.expressions.length === 0) {
    return node.quasis[0]?.value.cooked ?? undefined;
  }
  return undefined;
}

// The id meant: one that ends with the one written (`#todo-list` for "todos-todo-list"), else the nearest by edits.
function suggest(id: string, known: readonly string[]): string | undefined {
  const endings = known.filter((k) => k.endsWith(`-${id}`));
  if (endings.length === 1) return endings[0];
  return closestName(id, known, Math.min(3, Math.ceil(id.length / 3)));
}
