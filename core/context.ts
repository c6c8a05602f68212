// The request context: which tree, page and request a render belongs to.
//
// `urlFor`, `id`, `idTarget`, `currentPage`, `setStatus` and `setHeader` are
// plain functions that templates call anywhere; they find the current
// request through AsyncLocalStorage, entered once per request at mount's
// handler, outermost (so middleware sees it too).

import { AsyncLocalStorage } from 'node:async_hooks';
import type { PageRequest } from './mux/request.ts';
import type { PageNode } from './page-node.ts';
import type { RenderTarget } from './render-target.ts';
import type { Tree } from './tree.ts';

/** The state of one request inside the page pipeline. */
export interface RequestContext {
  readonly tree: Tree;
  readonly node: PageNode;
  req: PageRequest;
  /** What the request asks the page for, chosen once before the middlewares run; every step reads this one. */
  readonly target: RenderTarget;
  /** Status set by `setStatus`, for the rendered response. */
  status: number;
  /** Headers set by `setHeader` (lower-case names), for the rendered response. */
  headers: Record<string, string> | undefined;
}

export const requestContext = new AsyncLocalStorage<RequestContext>();

/**
 * The page node serving the current request.
 * @example currentPage().name // → "todos" inside TodosPage's render
 */
export function currentPage(): PageNode {
  const ctx = requestContext.getStore();
  if (!ctx) throw new Error('currentPage(): called outside a request; call it while rendering a page');
  return ctx.node;
}

/**
 * Sets the status of the rendered response, from `props()` or a component.
 * @example setStatus(201)
 */
export function setStatus(status: number): void {
  context('setStatus').status = status;
}

/**
 * Sets a header of the rendered response, from `props()` or a component.
 * @example setHeader('Cache-Control', 'no-store')
 */
export function setHeader(name: string, value: string): void {
  const ctx = context('setHeader');
  (ctx.headers ??= {})[name.toLowerCase()] = value;
}

function context(api: string): RequestContext {
  const ctx = requestContext.getStore();
  if (!ctx) throw new Error(`${api}(): called outside a request; call it from props() or a component`);
  return ctx;
}
