// mount(): reads the page tree from route fields, builds its nodes whole, and registers it on a ServeMux.
//
//   1. collect (one walk over the page objects): construct each page class once (with `deps`), read its
//      route fields in declaration order, compose full paths with path.posix.join, read what each page is
//      (page-node.ts's readPage) and parse its patterns once (route.ts), children before parents;
//   2. check over the collected list: every error() answers some route; give every component its element id
//      (element-ids.ts; duplicates fail);
//   3. build (one walk): every PageNode whole, with its ids, patterns and URL builder, parents first;
//   4. register the parsed patterns, children before parents (one per verb method: page-node.ts), then run
//      init() in the same order: passes over the built list, not walks.
// Anything wrong fails here, with the field path and the fix, never later on a request.
//
//   collect → Draft tree + lists:  pre-order [App, App.index, App.admin, App.admin.user]   (the tree's order)
//                                  post-order [App.index, App.admin.user, App.admin, App]  (registration order)

import { defaultErrorHandler, routeHandler, type ErrorHandler } from './dispatch.ts';
import { ConflictError, MountError, PatternError } from '../errors.ts';
import type { Pattern } from '../mux/pattern.ts';
import type { ServeMux } from '../mux/serve-mux.ts';
import { rememberTree, treeSecrets } from './context.ts';
import { elementIds } from './element-ids.ts';
import { PageNode, readPage, type Middleware, type PageNodeInit, type VerbMethod } from './page-node.ts';
import { composePath, isRoute, parseTag, routePatterns, type PageClass } from './route.ts';
import { Tree } from './tree.ts';

/** Options of `mount`. */
export interface MountOptions<TDeps = unknown> {
  /** Passed to every page class constructor. */
  deps?: TDeps;
  /** Wrap every route, outermost first (before the pages' own `middlewares()`). */
  middlewares?: Middleware[];
  /** Replaces the default error answer (plain-text status and message, no stack). */
  errorHandler?: ErrorHandler;
  /** Called for each route whose target has nothing to serve and no children (default: a warning to the mux's logger). */
  onEmptyRoute?: (node: PageNode) => void;
  /** Generated element ids longer than this are shortened (default 40). */
  maxIdLength?: number;
  /** Prepended to every URL urlFor builds, for an app served below a prefix by a proxy. */
  urlPrefix?: string;
  /** A page that has not answered within this many ms gets a 503 (default: no limit). */
  timeout?: number;
  /**
   * The page for requests no route matches: rendered through the pipeline (layout for a full load, a component
   * for htmx) with status 404. 405s and Go's redirects stay as they are.
   */
  notFound?: PageClass<object> | object;
  /**
   * The key that signs cookies (flash messages): at least 32 characters, kept out of the source (an environment
   * variable). Without it, `flash()` is an error.
   */
  secret?: string;
}

/**
 * Mounts a root page class (or instance) at a route and registers its tree.
 * @example const tree = mount(mux, App, '/', 'Home', { deps });
 */
export function mount<TRoot extends object, TDeps = unknown>(
  mux: ServeMux,
  root: PageClass<TRoot> | TRoot,
  routeTag = '/',
  title = '',
  options: MountOptions<TDeps> = {},
): Tree<TRoot> {
  if ((typeof root !== 'function' || !root.prototype) && (typeof root !== 'object' || root === null)) {
    throw new MountError(
      String(root),
      'the root must be a page class or an object; pass the class, e.g. mount(mux, App)',
    );
  }
  const rootName = typeof root === 'function' ? root.name : root.constructor.name;
  const tag = parseTag(routeTag);
  checkPath(rootName, routeTag, tag.path || '/');
  const rootTag = { ...tag, path: tag.path || '/', title: title || tag.title };
  const drafts = collect(root, rootName, rootName, rootTag, options.deps);
  checkErrorPages(drafts);
  const ids = elementIds(drafts.preorder, options.maxIdLength ?? 40);
  drafts.preorder.forEach((d, i) => (d.ids = ids[i]!));
  const { nodes, order } = build(drafts.preorder[0]!);
  const onEmptyRoute = options.onEmptyRoute ?? ((node: PageNode) => warnEmpty(mux, node));
  // An empty node with error() is a mount error (checkErrorPages), not a route to skip.
  for (const node of order) if (node.kind === 'empty') onEmptyRoute(node);
  const tree = new Tree<TRoot>(nodes, order, options.urlPrefix ?? '');
  // `secret: process.env.X` with X unset is a mistake to report now, not on the first flash().
  if ('secret' in options) treeSecrets.set(tree, checkSecret(rootName, options.secret));
  register(mux, tree, order, options);
  order.forEach(runInit);
  if (options.notFound !== undefined) registerNotFound(mux, tree, options);
  rememberTree(tree);
  return tree;
}

// A route while mount reads the tree: everything its node will hold, filled in as the walks learn it.
interface Draft extends PageNodeInit {
  readonly parent: Draft | null;
  /** The nearest route (itself or an ancestor) whose page defines error(). */
  errorPage: Draft | null;
  readonly registered: boolean;
  children: Draft[];
  patterns: Pattern[];
  ids: string[];
  /** Its subtree in the pre-order list: `preorder.slice(index, end)`. */
  readonly index: number;
  end: number;
}

interface Drafts {
  /** Root first, each route before its children: the tree's order. */
  readonly preorder: Draft[];
  /** Children before their parent: the order routes register and init() runs in. */
  readonly postorder: Draft[];
}

// Walk 1: every page object, constructed and read, with its tag parsed, its path composed and its patterns parsed.
function collect(
  root: unknown,
  rootName: string,
  rootFieldPath: string,
  tag: { method: string; path: string; title: string },
  deps: unknown,
): Drafts {
  const drafts: Drafts = { preorder: [], postorder: [] };
  const visit = (
    target: unknown,
    name: string,
    fieldPath: string,
    tag: { method: string; path: string; title: string },
    parent: Draft | null,
    ancestors: unknown[],
  ): Draft => {
    if (ancestors.includes(target)) {
      throw new MountError(
        fieldPath,
        `routes back to ${describe(target)}, an ancestor: a page tree cannot contain itself`,
      );
    }
    const page = construct(target, fieldPath, deps);
    const fields = Object.entries(page).filter(([, v]) => isRoute(v));
    // A route without a method takes its parent's: 'GET /admin' makes the admin section GET-only.
    const method = tag.method || (parent ? parent.method : '');
    const shape = readPage(page, method, fields.length > 0);
    const draft: Draft = {
      ...shape,
      name,
      title: tag.title,
      method,
      route: tag.path,
      page,
      fieldPath,
      fullPath: composePath(parent ? parent.fullPath : '', tag.path),
      parent,
      errorPage: parent?.errorPage ?? null,
      registered: shape.kind === 'page' || shape.kind === 'handler',
      children: [],
      patterns: [],
      ids: [],
      index: drafts.preorder.length,
      end: 0,
    };
    if (typeof (page as { error?: unknown }).error === 'function') draft.errorPage = draft;
    checkVerbs(draft, tag.method);
    drafts.preorder.push(draft);
    for (const [field, value] of fields) {
      const childPath = `${fieldPath}.${field}`;
      const route = value as { tag: string; target: unknown };
      const childTag = parseTag(route.tag);
      checkPath(childPath, route.tag, childTag.path);
      draft.children.push(visit(route.target, field, childPath, childTag, draft, [...ancestors, target]));
    }
    draft.end = drafts.preorder.length;
    // Parsed after the children's, so that a malformed pattern is reported in the order routes register.
    try {
      draft.patterns = routePatterns(shape.methods, draft.fullPath, fieldPath);
    } catch (err) {
      throw mountErrorFor(fieldPath, err);
    }
    drafts.postorder.push(draft);
    return draft;
  };
  visit(root, rootName, rootFieldPath, tag, null, []);
  return drafts;
}

// Constructs a page class once, with `deps`; an object is the page as given.
function construct(target: unknown, fieldPath: string, deps: unknown): object {
  if (typeof target === 'function' && target.prototype) {
    try {
      return new (target as new (deps: unknown) => object)(deps);
    } catch (err) {
      throw new MountError(fieldPath, `constructing ${target.name} failed: ${String(err)}`, { cause: err });
    }
  }
  if (typeof target === 'object' && target !== null) return target;
  throw new MountError(
    fieldPath,
    `route target ${String(target)} is not a page class or object; pass a class, e.g. route('/x', XPage)`,
  );
}

// Verb methods register their own methods, so a method in the tag (or inherited from a parent's) contradicts them.
function checkVerbs(draft: Draft, ownMethod: string): void {
  if (draft.verbs.length === 0) return;
  const verbs = draft.verbs.map((v) => `${v}()`).join(', ');
  if (draft.kind === 'handler') {
    throw new MountError(
      draft.fieldPath,
      `defines serveHTTP() and ${verbs}: serveHTTP answers every method itself; remove one of them`,
    );
  }
  if (draft.method) {
    const where = ownMethod ? 'its route tag' : `the route tag of a parent (${draft.parent!.fieldPath})`;
    throw new MountError(
      draft.fieldPath,
      `defines ${verbs} but ${where} says ${draft.method}: verb methods register their own methods ` +
        `(props and page answer GET); remove "${draft.method}" from the tag`,
    );
  }
}

// An error() that no route reaches is a mistake: a section without routes, one whose routes all have nearer
// error pages, or a partial named `error` from before error() meant the error page. Children first, so the
// deepest such section is the one named.
function checkErrorPages({ preorder, postorder }: Drafts): void {
  for (const draft of postorder) {
    if (draft.errorPage !== draft) continue;
    const routes = preorder.slice(draft.index, draft.end).filter((d) => d.registered);
    if (routes.some((d) => d.errorPage === draft)) continue;
    const nearer = new Set(routes.map((d) => d.errorPage!.fieldPath));
    const why =
      routes.length === 0
        ? 'there is no route at or below it; remove it, or add routes below it'
        : `every route below it has its own error() (${[...nearer].join(', ')}); remove it, or remove theirs`;
    throw new MountError(
      draft.fieldPath,
      `error() can never answer: ${why} (error(err, req, target) is the error page of the routes at and below ` +
        `it, not a partial: rename a partial called "error")`,
    );
  }
}

// Walk 2: every node whole when built, parents first so that a child is built with its parent.
function build(root: Draft): { nodes: PageNode[]; order: PageNode[] } {
  const nodes: PageNode[] = [];
  const order: PageNode[] = [];
  const visit = (draft: Draft, parent: PageNode | null): PageNode => {
    const node = new PageNode(draft, parent, (self) => {
      nodes.push(self); // before its children: the tree's order
      return draft.children.map((child) => visit(child, self));
    });
    order.push(node); // after its children: the registration order
    return node;
  };
  visit(root, null);
  return { nodes, order };
}

function checkSecret(rootName: string, secret: unknown): string {
  if (typeof secret !== 'string' || secret.length < 32) {
    throw new MountError(
      `${rootName} (secret)`,
      'the secret must be a string of at least 32 characters; generate one (openssl rand -base64 32) and pass it ' +
        'from the environment',
    );
  }
  return secret;
}

function warnEmpty(mux: ServeMux, node: PageNode): void {
  mux.logger.warn(`pagetree: ${node.fieldPath} has no page(), serveHTTP() or routes; it was skipped`);
}

function checkPath(fieldPath: string, tag: string, path: string): void {
  if (!path.startsWith('/')) {
    throw new MountError(
      fieldPath,
      `invalid route tag ${JSON.stringify(tag)}: the path must start with "/"; write it as '[METHOD] /path [Title]'`,
    );
  }
}

function register(mux: ServeMux, tree: Tree, order: readonly PageNode[], options: MountOptions<unknown>): void {
  const onError = options.errorHandler ?? defaultErrorHandler;
  const ownMiddlewares = new Map<PageNode, Middleware[]>();
  const middlewaresOf = (node: PageNode): Middleware[] => {
    let list = ownMiddlewares.get(node);
    if (!list) {
      const m = (node.page as { middlewares?: () => Middleware[] }).middlewares;
      list = typeof m === 'function' ? m.call(node.page) : [];
      ownMiddlewares.set(node, list);
    }
    return list;
  };
  for (const node of order) {
    if (!node.registered) continue;
    const chain: PageNode[] = [];
    for (let n: PageNode | null = node; n; n = n.parent) chain.unshift(n);
    const middlewares = [...(options.middlewares ?? []), ...chain.flatMap(middlewaresOf)];
    for (const pattern of node.compiled) {
      try {
        const handler = routeHandler({
          tree,
          node,
          answer: answerOf(node, pattern),
          middlewares,
          onError,
          logger: mux.logger,
          timeout: options.timeout ?? 0,
        });
        mux.handle(pattern, handler);
      } catch (err) {
        throw mountErrorFor(node.fieldPath, err);
      }
    }
  }
}

// The page method that answers a pattern: the verb method for its method, props for the rest.
function answerOf(node: PageNode, pattern: Pattern): 'props' | VerbMethod {
  const verb = pattern.method.toLowerCase();
  return node.verbs.find((v) => v === verb) ?? 'props';
}

// The not-found page: a node outside the tree (no route of its own), under the global and the root's middlewares.
function registerNotFound(mux: ServeMux, tree: Tree, options: MountOptions<unknown>): void {
  const root = tree.root;
  const fieldPath = `${root.fieldPath} (notFound)`;
  const tag = { method: '', path: '/', title: 'Not Found' };
  const draft = collect(options.notFound, 'notFound', fieldPath, tag, options.deps).preorder[0]!;
  if (draft.kind !== 'page' && draft.kind !== 'handler') {
    throw new MountError(fieldPath, 'the notFound page has no page(), props() or serveHTTP(); give it a page()');
  }
  if (draft.children.length > 0) {
    throw new MountError(
      fieldPath,
      'the notFound page has routes; they would never be reached; mount them in the tree',
    );
  }
  draft.ids = draft.components.map((c) => `not-found-${c.kebab}`);
  const node = build(draft).nodes[0]!;
  const rootMiddlewares = (root.page as { middlewares?: () => Middleware[] }).middlewares;
  const handler = routeHandler({
    tree,
    node,
    answer: 'props',
    middlewares: [...(options.middlewares ?? []), ...(rootMiddlewares ? rootMiddlewares.call(root.page) : [])],
    onError: options.errorHandler ?? defaultErrorHandler,
    logger: mux.logger,
    timeout: options.timeout ?? 0,
    status: 404,
  });
  mux.handleNotFound(handler);
  runInit(node);
}

// A PatternError (from parsing a route's pattern) or ConflictError (from registering it), told as a mount error.
function mountErrorFor(fieldPath: string, err: unknown): Error {
  if (err instanceof PatternError && err.reason.startsWith('duplicate wildcard name')) {
    return new MountError(
      fieldPath,
      `the composed pattern ${JSON.stringify(err.pattern)} has the ${err.reason}: a wildcard of this route repeats ` +
        `one of its parents'; rename one of them`,
      { cause: err },
    );
  }
  if (err instanceof PatternError) {
    return new MountError(
      fieldPath,
      `invalid route tag for pattern ${JSON.stringify(err.pattern)}: ${err.message}; fix the tag '[METHOD] /path [Title]'`,
      { cause: err },
    );
  }
  if (err instanceof ConflictError) {
    return new MountError(
      fieldPath,
      `route conflict: ${err.message}\nFix: make one pattern more specific, or give the routes different methods`,
      { cause: err },
    );
  }
  return err instanceof Error ? err : new Error(String(err));
}

function runInit(node: PageNode): void {
  const init = (node.page as { init?: () => unknown }).init;
  if (typeof init !== 'function') return;
  let result: unknown;
  try {
    result = init.call(node.page);
  } catch (err) {
    throw new MountError(node.fieldPath, `init() failed: ${String(err)}`, { cause: err });
  }
  if (result instanceof Promise) {
    result.catch(() => {}); // reported below, not as an unhandled rejection
    throw new MountError(node.fieldPath, 'init() returned a Promise; it must be synchronous (load data in props())');
  }
}

function describe(target: unknown): string {
  if (typeof target === 'function') return target.name || 'an anonymous class';
  if (typeof target === 'object' && target !== null) return target.constructor.name;
  return String(target);
}
