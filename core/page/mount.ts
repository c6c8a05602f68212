// mount(): builds the page tree from route fields and registers it on a ServeMux.
//
//   1. build: construct each page class once (with `deps`), read its route
//      fields in declaration order, compose full paths with path.posix.join;
//   2. ids: give every component its element id (duplicates fail);
//   3. error pages: every error() answers some route (page-node.ts gives each node its nearest);
//   4. register: children before parents, `METHOD /full/path` per page (one per verb method: page-node.ts);
//   5. init(): once per page, children before parents.
// Anything wrong fails here, with the field path and the fix, never later on a request.

import { defaultErrorHandler, routeHandler, type ErrorHandler } from './dispatch.ts';
import { ConflictError, MountError, PatternError } from '../errors.ts';
import type { ServeMux } from '../mux/serve-mux.ts';
import { rememberTree, treeSecrets } from './context.ts';
import { PageNode, type Middleware, type VerbMethod } from './page-node.ts';
import { composePath, isRoute, parseTag, type PageClass } from './route.ts';
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
  const rootNode = build(
    root,
    rootName,
    rootName,
    { ...tag, path: tag.path || '/', title: title || tag.title },
    null,
    [],
    { ...options, onEmptyRoute: options.onEmptyRoute ?? ((node) => warnEmpty(mux, node)) },
  );
  checkErrorPages(rootNode);
  const tree = new Tree<TRoot>(rootNode, options.maxIdLength ?? 40, options.urlPrefix ?? '');
  // `secret: process.env.X` with X unset is a mistake to report now, not on the first flash().
  if ('secret' in options) treeSecrets.set(tree, checkSecret(rootName, options.secret));
  register(mux, tree, rootNode, options);
  runInit(rootNode);
  if (options.notFound !== undefined) registerNotFound(mux, tree, rootNode, options);
  rememberTree(tree);
  return tree;
}

function build(
  target: unknown,
  name: string,
  fieldPath: string,
  tag: { method: string; path: string; title: string },
  parent: PageNode | null,
  ancestors: unknown[],
  options: MountOptions<unknown>,
): PageNode {
  if (ancestors.includes(target)) {
    throw new MountError(
      fieldPath,
      `routes back to ${describe(target)}, an ancestor: a page tree cannot contain itself`,
    );
  }
  let page: object;
  if (typeof target === 'function' && target.prototype) {
    try {
      page = new (target as new (deps: unknown) => object)(options.deps);
    } catch (err) {
      throw new MountError(fieldPath, `constructing ${target.name} failed: ${String(err)}`, { cause: err });
    }
  } else if (typeof target === 'object' && target !== null) {
    page = target;
  } else {
    throw new MountError(
      fieldPath,
      `route target ${String(target)} is not a page class or object; pass a class, e.g. route('/x', XPage)`,
    );
  }
  const fields = Object.entries(page).filter(([, v]) => isRoute(v));
  const parentPath = parent ? parent.fullRoute() : '';
  // A route without a method takes its parent's: 'GET /admin' makes the admin section GET-only.
  const method = tag.method || (parent ? parent.method : '');
  const node = new PageNode({
    name,
    title: tag.title,
    method,
    route: tag.path,
    parent,
    page,
    fieldPath,
    fullPath: composePath(parentPath, tag.path),
    hasChildren: fields.length > 0,
  });
  checkVerbs(node, tag.method);
  for (const [field, value] of fields) {
    const childPath = `${fieldPath}.${field}`;
    const route = value as { tag: string; target: unknown };
    const childTag = parseTag(route.tag);
    checkPath(childPath, route.tag, childTag.path);
    node.children.push(build(route.target, field, childPath, childTag, node, [...ancestors, target], options));
  }
  // An empty node with error() is a mount error (checkErrorPages), not a route to skip.
  if (node.kind === 'empty' && node.errorPage !== node) options.onEmptyRoute?.(node);
  return node;
}

// Verb methods register their own methods, so a method in the tag (or inherited from a parent's) contradicts them.
function checkVerbs(node: PageNode, ownMethod: string): void {
  if (node.verbs.length === 0) return;
  const verbs = node.verbs.map((v) => `${v}()`).join(', ');
  if (node.kind === 'handler') {
    throw new MountError(
      node.fieldPath,
      `defines serveHTTP() and ${verbs}: serveHTTP answers every method itself; remove one of them`,
    );
  }
  if (node.method) {
    const where = ownMethod ? 'its route tag' : `the route tag of a parent (${node.parent!.fieldPath})`;
    throw new MountError(
      node.fieldPath,
      `defines ${verbs} but ${where} says ${node.method}: verb methods register their own methods ` +
        `(props and page answer GET); remove "${node.method}" from the tag`,
    );
  }
}

// An error() that no route reaches is a mistake: a section without routes, one whose routes all have nearer
// error pages, or a partial named `error` from before error() meant the error page.
function checkErrorPages(root: PageNode): void {
  const visit = (node: PageNode) => {
    node.children.forEach(visit);
    if (node.errorPage !== node) return;
    const nearer = new Set<string>();
    let routes = 0;
    const below = (n: PageNode) => {
      if (n.registered) {
        if (n.errorPage === node) return true;
        routes++;
        nearer.add(n.errorPage!.fieldPath);
      }
      return n.children.some(below);
    };
    if (below(node)) return;
    const why =
      routes === 0
        ? 'there is no route at or below it; remove it, or add routes below it'
        : `every route below it has its own error() (${[...nearer].join(', ')}); remove it, or remove theirs`;
    throw new MountError(
      node.fieldPath,
      `error() can never answer: ${why} (error(err, req, target) is the error page of the routes at and below ` +
        `it, not a partial: rename a partial called "error")`,
    );
  };
  visit(root);
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

function register(mux: ServeMux, tree: Tree, root: PageNode, options: MountOptions<unknown>): void {
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
  const visit = (node: PageNode) => {
    node.children.forEach(visit); // children register before their parent
    if (!node.registered) return;
    const chain: PageNode[] = [];
    for (let n: PageNode | null = node; n; n = n.parent) chain.unshift(n);
    const middlewares = [...(options.middlewares ?? []), ...chain.flatMap(middlewaresOf)];
    for (const pattern of node.patterns) {
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
        mux.handle(pattern, handler, node.fieldPath);
      } catch (err) {
        throw mountErrorFor(node, pattern, err);
      }
    }
  };
  visit(root);
}

// The page method that answers a pattern: the verb method for its method, props for the rest.
function answerOf(node: PageNode, pattern: string): 'props' | VerbMethod {
  const verb = pattern.slice(0, pattern.indexOf(' ')).toLowerCase();
  return node.verbs.find((v) => v === verb) ?? 'props';
}

// The not-found page: a node outside the tree (no route of its own), under the global and the root's middlewares.
function registerNotFound(mux: ServeMux, tree: Tree, root: PageNode, options: MountOptions<unknown>): void {
  const fieldPath = `${root.fieldPath} (notFound)`;
  const node = build(options.notFound, 'notFound', fieldPath, { method: '', path: '/', title: 'Not Found' }, null, [], {
    ...options,
    onEmptyRoute: undefined,
  });
  if (node.kind !== 'page' && node.kind !== 'handler') {
    throw new MountError(fieldPath, 'the notFound page has no page(), props() or serveHTTP(); give it a page()');
  }
  if (node.children.length > 0) {
    throw new MountError(
      fieldPath,
      'the notFound page has routes; they would never be reached; mount them in the tree',
    );
  }
  for (const c of node.components) c.id = `not-found-${c.kebab}`;
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

function mountErrorFor(node: PageNode, pattern: string, err: unknown): Error {
  if (err instanceof PatternError && err.reason.startsWith('duplicate wildcard name')) {
    return new MountError(
      node.fieldPath,
      `the composed pattern ${JSON.stringify(pattern)} has the ${err.reason}: a wildcard of this route repeats one of ` +
        `its parents'; rename one of them`,
      { cause: err },
    );
  }
  if (err instanceof PatternError) {
    return new MountError(
      node.fieldPath,
      `invalid route tag for pattern ${JSON.stringify(pattern)}: ${err.message}; fix the tag '[METHOD] /path [Title]'`,
      { cause: err },
    );
  }
  if (err instanceof ConflictError) {
    return new MountError(
      node.fieldPath,
      `route conflict: ${err.message}\nFix: make one pattern more specific, or give the routes different methods`,
      { cause: err },
    );
  }
  return err instanceof Error ? err : new Error(String(err));
}

function runInit(node: PageNode): void {
  node.children.forEach(runInit);
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
