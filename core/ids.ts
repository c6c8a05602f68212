// id() and idTarget(): element ids of page methods, from anywhere.
//
// Inside a request the current tree and page decide; outside one, every
// mounted tree is searched and an ambiguous method is an error.

import { requestContext } from './context';
import { kebab } from './kebab';
import type { Tree } from './tree';

const mountedTrees = new Set<Tree>();

/** Makes a tree's components known to id()/idTarget() outside a request. */
export function rememberTree(tree: Tree): void {
  mountedTrees.add(tree);
}

/**
 * The element id of a page method (`this.todoList`) or standalone component
 * function; a string passes through unchanged.
 * @example id(this.todoList) // → "todos-todo-list"
 */
export function id(x: ((...args: never[]) => unknown) | string): string {
  if (typeof x === 'string') return x;
  const ctx = requestContext.getStore();
  if (ctx) return ctx.tree.id(x, ctx.node);
  const trees = [...mountedTrees].filter((t) => t.hasComponent(x));
  if (trees.length === 1) return trees[0]!.id(x);
  if (trees.length === 0) return kebab(x.name);
  throw new Error(`id(${x.name}): the method is mounted in ${trees.length} trees; use tree.id() on the one you mean`);
}

/**
 * `#` + id(x), for `hx-target`; a string passes through unchanged.
 * @example idTarget(this.todoList) // → "#todos-todo-list"
 */
export function idTarget(x: ((...args: never[]) => unknown) | string): string {
  return typeof x === 'string' ? x : '#' + id(x);
}
