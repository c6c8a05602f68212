// mount(): reads the page tree from route fields, builds its nodes whole, and registers it on a ServeMux.
//
//   1. collect (walk 1, collect.ts): construct each page class once (with `deps`), read its route fields in
//      declaration order, compose full paths, read each page and parse its patterns once;
//   2. over the collected list: every error() answers some route; every component gets its element id
//      (element-ids.ts; duplicates fail);
//   3. build (walk 2): every PageNode whole (ids, parsed patterns, URL builder), parents first;
//   4. over the built list, children first: register the parsed patterns (one per verb method), then init().
//
//   App (group "/")                          drafts, nodes (pre-order)  App, App.index, App.admin, App.admin.user
//   ├─ index  Home     "/{$}"                registration (post-order)  App.index, App.admin.user, App.admin, App
//   └─ admin  Admin    "/admin"
//      └─ user  UserPage "/admin/users/{userId}"
//
// Anything wrong fails here, with the field path and the fix, never later on a request.

import { routeHandler } from '../pipeline/dispatch.ts';
import { defaultErrorHandler } from '../pipeline/error-answer.ts';
import type { ErrorHandler } from '../pipeline/handler-options.ts';
import { checkErrorPages, checkPath, collect, type Draft } from '../tree/collect.ts';
import { base64url } from '../kernel/base64url.ts';
import { compressAnswers, compression, type Compression, type CompressOptions } from '../compress/compress.ts';
import { ConflictError, MountError } from '../errors.ts';
import type { Pattern } from '../mux/pattern.ts';
import type { ServeMux } from '../mux/serve-mux.ts';
import { rememberTree, requestContext, type RequestContext } from '../request/context.ts';
import type { SessionOptions } from '../auth/session.ts';
import { elementIds } from '../tree/ids.ts';
import { PageNode, type Middleware, type VerbMethod } from '../tree/page-node.ts';
import { parseTag, type PageClass } from '../tree/route.ts';
import { flashCookieSetting, secretsSetting, sessionSetting, Tree } from '../tree/tree.ts';
import { accessLogger, type AccessLogEntry, type Observe, type ObserveOptions } from '../observe/tracing.ts';
import type { Logger } from '../kernel/logger.ts';

/** What a page's `init()` is given at mount. */
export interface MountedOn {
  /** The mux's logger: what a page finds wrong at mount (a directory it cannot read) is reported there. */
  readonly logger: Logger;
}

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
  /** Generated element ids longer than this are shortened (default 64). */
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
   * The key that signs cookies (flash messages) and encrypts sessions: at least 32 characters, kept out of the
   * source (an environment variable). A list rotates keys: the first signs and encrypts, each one verifies and
   * decrypts, so cookies made with the old key stay good until it is dropped from the list.
   * `secret: undefined` (the variable is unset) is a mount error, except with `dev`. Without the option,
   * `flash()` and `session()` are errors.
   */
  secret?: string | readonly string[];
  /** Sessions (`session()`): the cookie's name, idle and absolute expiry, a server-side store. */
  session?: SessionOptions;
  /**
   * Development mode (`npm run dev`): an unset `secret` is generated for this start, with one warning, instead of a
   * mount error; signed cookies then do not survive a restart. Never set it in production.
   */
  dev?: boolean;
  /**
   * The name of the flash message cookie (default `pagetree-flash`). Cookies ignore ports and paths unless told:
   * two apps on one host name (say localhost:3000 and :3001) each give their own, or one would delete the other's
   * message as a cookie it cannot verify.
   */
  flashCookie?: string;
  /**
   * Compress rendered answers (br, zstd where the runtime has it, gzip) for clients that accept them, above 1 KiB
   * of text: on by default, except on workerd (Cloudflare compresses at its edge) and Deno (Deno.serve does).
   * `false` leaves it to a proxy in front; an object sets the threshold and the codings (docs/compression.md).
   */
  compress?: boolean | CompressOptions;
  /** What the tree reports of its requests beyond the tracing channels: Server-Timing, the access log. */
  observe?: ObserveOptions;
  /** @deprecated Since 0.2: `observe: { serverTiming }`. This form goes in 0.3. */
  serverTiming?: boolean;
  /** @deprecated Since 0.2: `observe: { accessLog }`. This form goes in 0.3. */
  accessLog?: boolean | ((entry: AccessLogEntry) => void);
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
  const ids = elementIds(drafts.preorder, options.maxIdLength, options.dev ? mux.logger : undefined);
  drafts.preorder.forEach((d, i) => (d.ids = ids[i]!));
  const { nodes, order } = build(drafts.preorder[0]!);
  const onEmptyRoute = options.onEmptyRoute ?? ((node: PageNode) => warnEmpty(mux, node));
  // An empty node with error() is a mount error (checkErrorPages), not a route to skip.
  for (const node of order) if (node.kind === 'empty') onEmptyRoute(node);
  const tree = new Tree<TRoot>(nodes, order, options.urlPrefix ?? '', currentRoute);
  // `secret: process.env.X` with X unset is a mistake to report now, not on the first flash().
  if ('secret' in options || options.dev) tree.configure(secretsSetting, checkSecret(mux, rootName, options));
  if (options.flashCookie !== undefined)
    tree.configure(flashCookieSetting, checkCookieName(`${rootName} (flashCookie)`, options.flashCookie));
  if (options.session !== undefined) {
    if (tree.setting(secretsSetting) === undefined) {
      throw new MountError(
        `${rootName} (session)`,
        'sessions are sealed with the secret, and none is given; pass secret: process.env.PAGETREE_SECRET as well',
      );
    }
    tree.configure(sessionSetting, checkSessionOptions(rootName, options.session));
  }
  const compress = compressionOf(rootName, options.compress);
  const observe = observeOf(mux, rootName, options);
  register(mux, tree, order, options, compress, observe);
  for (const node of order) runInit(node, mux.logger);
  if (options.notFound !== undefined) registerNotFound(mux, tree, options, compress, observe);
  rememberTree(tree);
  return tree;
}

// Walk 2: every node whole when built, parents first so that a child is built with its parent.
// The route of the request being answered, for urlFor's missing params, when the request is one of the tree's.
function currentRoute(tree: Tree): RequestContext | undefined {
  const ctx = requestContext.getStore();
  return ctx?.tree === tree ? ctx : undefined;
}

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

function checkCookieName(field: string, name: unknown): string {
  if (typeof name !== 'string' || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) {
    throw new MountError(
      field,
      `${JSON.stringify(name)} is not a cookie name; use letters, digits and - (e.g. "tasks-flash")`,
    );
  }
  return name;
}

function checkSecret(mux: ServeMux, rootName: string, { secret, dev }: MountOptions<unknown>): readonly string[] {
  if (secret === undefined && dev) {
    mux.logger.warn(
      'pagetree: no secret (PAGETREE_SECRET is unset?); this start signs cookies with a generated one, so flash ' +
        'messages do not survive a restart. Set PAGETREE_SECRET in .env (openssl rand -base64 32) to keep them.',
    );
    return [base64url(crypto.getRandomValues(new Uint8Array(32)))];
  }
  if (secret === undefined) {
    throw new MountError(
      `${rootName} (secret)`,
      'the secret is undefined; set the environment variable it is read from, e.g. PAGETREE_SECRET, to 32 or more ' +
        'random characters (openssl rand -base64 32), or pass dev: true in development to generate one per start',
    );
  }
  const list: unknown[] = Array.isArray(secret) ? secret : [secret];
  if (list.length === 0) {
    throw new MountError(`${rootName} (secret)`, 'the list of secrets is empty; the first one signs, so give one');
  }
  list.forEach((one, i) => {
    if (typeof one !== 'string' || one.length < 32) {
      throw new MountError(
        Array.isArray(secret) ? `${rootName} (secret[${i}])` : `${rootName} (secret)`,
        'the secret must be a string of at least 32 characters; generate one (openssl rand -base64 32) and pass it ' +
          'from the environment',
      );
    }
  });
  return list as string[];
}

function checkSessionOptions(rootName: string, options: SessionOptions): SessionOptions {
  if (options.cookie !== undefined) checkCookieName(`${rootName} (session.cookie)`, options.cookie);
  for (const name of ['idleTimeout', 'absoluteTimeout'] as const) {
    const seconds = options[name];
    if (seconds !== undefined && !(Number.isInteger(seconds) && seconds > 0)) {
      throw new MountError(
        `${rootName} (session.${name})`,
        `${JSON.stringify(seconds)} is not a number of seconds; pass a whole number above 0`,
      );
    }
  }
  return options;
}

function warnEmpty(mux: ServeMux, node: PageNode): void {
  mux.logger.warn(`pagetree: ${node.fieldPath} has no page(), serveHTTP() or routes; it was skipped`);
}

function register(
  mux: ServeMux,
  tree: Tree,
  order: readonly PageNode[],
  options: MountOptions<unknown>,
  compress: Compression | null,
  observe: Observe | undefined,
): void {
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
          observe,
        });
        mux.handle(pattern, compress ? compressAnswers(handler, compress) : handler);
      } catch (err) {
        throw mountErrorFor(node.fieldPath, err);
      }
    }
  }
}

// The mount's compression, decided once for all its routes (they share one cache of Accept-Encoding answers).
function compressionOf(rootName: string, option: MountOptions<unknown>['compress']): Compression | null {
  try {
    return compression(option);
  } catch (err) {
    throw new MountError(`${rootName} (compress)`, (err as Error).message);
  }
}

// What the tree's requests report beyond the tracing channels (tracing.ts): undefined for nothing.
function observeOf(mux: ServeMux, rootName: string, options: MountOptions<unknown>): Observe | undefined {
  const serverTiming = grouped(rootName, options, 'serverTiming') ?? options.dev ?? false;
  const accessLog = accessLogger(grouped(rootName, options, 'accessLog'), mux.logger);
  if (typeof accessLog === 'string') throw new MountError(`${rootName} (observe.accessLog)`, accessLog);
  return serverTiming || accessLog ? { serverTiming, accessLog } : undefined;
}

// An `observe` option, from the group or from the flat field it replaces (deprecated); both given is a mistake.
function grouped<K extends keyof ObserveOptions>(
  rootName: string,
  options: MountOptions<unknown>,
  key: K,
): ObserveOptions[K] | undefined {
  const inGroup = options.observe?.[key];
  const flat = options[key];
  if (inGroup !== undefined && flat !== undefined) {
    throw new MountError(
      `${rootName} (observe.${key})`,
      `given twice, as observe.${key} and ${key}; keep observe.${key}`,
    );
  }
  return inGroup ?? flat;
}

// The page method that answers a pattern: the verb method for its method, props for the rest.
function answerOf(node: PageNode, pattern: Pattern): 'props' | VerbMethod {
  const verb = pattern.method.toLowerCase();
  return node.verbs.find((v) => v === verb) ?? 'props';
}

// The not-found page: a node outside the tree (no route of its own), under the global and the root's middlewares.
function registerNotFound(
  mux: ServeMux,
  tree: Tree,
  options: MountOptions<unknown>,
  compress: Compression | null,
  observe: Observe | undefined,
): void {
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
    observe,
  });
  mux.handleNotFound(compress ? compressAnswers(handler, compress) : handler);
  runInit(node, mux.logger);
}

// A ConflictError (from registering a route's pattern) told as a mount error; anything else as it is.
function mountErrorFor(fieldPath: string, err: unknown): Error {
  if (err instanceof ConflictError) {
    return new MountError(
      fieldPath,
      `route conflict: ${err.message}\nFix: make one pattern more specific, or give the routes different methods`,
      { cause: err },
    );
  }
  return err instanceof Error ? err : new Error(String(err));
}

function runInit(node: PageNode, logger: Logger): void {
  const init = (node.page as { init?: (mounted: MountedOn) => unknown }).init;
  if (typeof init !== 'function') return;
  let result: unknown;
  try {
    result = init.call(node.page, { logger });
  } catch (err) {
    throw new MountError(node.fieldPath, `init() failed: ${String(err)}`, { cause: err });
  }
  if (result instanceof Promise) {
    result.catch(() => {}); // reported below, not as an unhandled rejection
    throw new MountError(node.fieldPath, 'init() returned a Promise; it must be synchronous (load data in props())');
  }
}
